import { readdirSync, readFileSync, readlinkSync } from 'node:fs'

/**
 * Which process holds which TCP socket, from /proc (Linux): how a test tells the gateways that share
 * one port apart without asking them. The kernel picks the listener of each connection (SO_REUSEPORT);
 * the server end of an accepted connection then sits in exactly one process's descriptors.
 */

interface TcpSocket {
	localPort: number
	remotePort: number
	/** `0A` listening, `01` established. */
	state: string
	inode: string
}

function tcpSockets(): TcpSocket[] {
	const out: TcpSocket[] = []
	for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
		let text = ''
		try {
			text = readFileSync(file, 'utf8')
		} catch {
			continue
		}
		for (const line of text.split('\n').slice(1)) {
			const f = line.trim().split(/\s+/)
			if (f.length < 10) continue
			const port = (addr: string) => Number.parseInt(addr.slice(addr.lastIndexOf(':') + 1), 16)
			out.push({
				localPort: port(f[1] as string),
				remotePort: port(f[2] as string),
				state: f[3] as string,
				inode: f[9] as string,
			})
		}
	}
	return out
}

/** The socket inodes among a process's descriptors (empty once it is gone). */
function socketInodes(pid: number): Set<string> {
	const found = new Set<string>()
	let fds: string[] = []
	try {
		fds = readdirSync(`/proc/${pid}/fd`)
	} catch {
		return found
	}
	for (const fd of fds) {
		try {
			const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))
			if (m) found.add(m[1] as string)
		} catch {
			// Closed while we looked.
		}
	}
	return found
}

/** The connections to `port` whose server end the process holds (inodes; empty once it is gone). */
export function connectionsOf(pid: number, port: number): Set<string> {
	const mine = socketInodes(pid)
	return new Set(
		tcpSockets()
			.filter((s) => s.localPort === port && s.state === '01' && mine.has(s.inode))
			.map((s) => s.inode),
	)
}

/**
 * Opens one connection and says which of `pids` accepted it: the one whose connections to `port`
 * gained one. Nothing else may connect to the port meanwhile (the test opens one at a time).
 */
export async function acceptedBy<T>(
	pids: number[],
	port: number,
	open: () => Promise<T>,
): Promise<{ value: T; pid: number | undefined }> {
	const before = new Map(pids.map((pid) => [pid, connectionsOf(pid, port)]))
	const value = await open()
	const pid = pids.find((p) => [...connectionsOf(p, port)].some((inode) => !before.get(p)?.has(inode)))
	return { value, pid }
}

/** Whether the process listens on the port. */
export function listensOn(pid: number, port: number): boolean {
	const mine = socketInodes(pid)
	return tcpSockets().some((s) => s.localPort === port && s.state === '0A' && mine.has(s.inode))
}
