/**
 * The process's file descriptor limit (RLIMIT_NOFILE), read and set through libc with `bun:ffi`:
 * every idle TDLib client holds about six descriptors, and the soft limit most systems start a
 * process with (1,024, or whatever the service manager set) is what a supervisor child dies of
 * long before memory runs out (docs/capacity.md). Linux only; elsewhere nothing is changed and the
 * caller logs that it was not. `bun:ffi` is loaded on first use only: the Deno entry imports this
 * module's importers but never runs supervisors.
 */
import type { Pointer } from 'bun:ffi'

export interface DescriptorLimit {
	soft: number
	hard: number
}

/** RLIMIT_NOFILE on Linux (x86-64 and arm64 alike). */
const RLIMIT_NOFILE = 7
/** What `rlim_t` says for "no limit": no number fits in a double exactly, so it is capped. */
const UNLIMITED = 2 ** 53

type Libc = {
	getrlimit(resource: number, out: Pointer): number
	setrlimit(resource: number, value: Pointer): number
	ptr(view: BigUint64Array): Pointer
}

async function openLibc(): Promise<Libc | null> {
	if (process.platform !== 'linux') return null
	const { dlopen, FFIType, ptr } = await import('bun:ffi')
	for (const name of ['libc.so.6', 'libc.so']) {
		try {
			const lib = dlopen(name, {
				getrlimit: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 },
				setrlimit: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 },
			})
			return { ...(lib.symbols as unknown as Omit<Libc, 'ptr'>), ptr: (view) => ptr(view) }
		} catch {
			// musl names itself otherwise; the next name, then none.
		}
	}
	return null
}

const toNumber = (v: bigint) => (v >= BigInt(UNLIMITED) ? UNLIMITED : Number(v))

function read(libc: Libc): DescriptorLimit | null {
	const out = new BigUint64Array(2)
	if (libc.getrlimit(RLIMIT_NOFILE, libc.ptr(out)) !== 0) return null
	return { soft: toNumber(out[0] as bigint), hard: toNumber(out[1] as bigint) }
}

/** The limit as it is now; null where it cannot be read (not Linux, no libc found). */
export async function descriptorLimit(): Promise<DescriptorLimit | null> {
	const libc = await openLibc()
	return libc ? read(libc) : null
}

/**
 * Sets the soft limit to `target` (default: the hard limit; never above it) and returns the limit
 * now in force, or null where it cannot be set. Lowering it is how a test (or `CHILD_MAX_FDS`)
 * gives a child a small budget; the hard limit is left as it is, so this process can raise it again.
 */
export async function setDescriptorLimit(target?: number): Promise<DescriptorLimit | null> {
	const libc = await openLibc()
	if (!libc) return null
	const now = read(libc)
	if (!now) return null
	const soft = Math.min(target ?? now.hard, now.hard)
	if (soft === now.soft) return now
	const value = new BigUint64Array([
		BigInt(soft),
		now.hard >= UNLIMITED ? 0xffffffffffffffffn : BigInt(now.hard),
	])
	if (libc.setrlimit(RLIMIT_NOFILE, libc.ptr(value)) !== 0) return now
	return read(libc)
}
