import { join } from 'node:path'

/** Runs test/reliability/stalled-clients.mjs: many clients that stop reading, in one Node process. */
export interface StalledSpec {
	sockets: number
	userbotId: number
	/** Sent `count` times by each socket. */
	frame: Record<string, unknown>
	count: number
	/** Frames each socket sends at a time (100). */
	batch?: number
	/** Milliseconds between batches. */
	paceMs: number
	/** How long the sockets stay stalled; unset: until `resume()`, sending on at the same pace. */
	stallMs?: number
	readMs: number
}

export interface StalledResult {
	/** Request ids answered, in arrival order. */
	replies: string[]
	/** Frames sent (`count`, or more when it stayed stalled until `resume()`). */
	sent: number
	/** Error replies by their error. */
	errors: Record<string, number>
	/** Bytes of the replies received. */
	bytes: number
	updates: number
	/** The server's close frame, if one came. */
	close: { code: number; reason: string } | null
	/** The connection ended (with or without a close frame). */
	ended: boolean
}

const SCRIPT = join(import.meta.dir, 'stalled-clients.mjs')

/** Starts the clients; resolves once every one is stalled with its frames sent. */
export async function startStalledClients(
	url: string,
	token: string,
	spec: StalledSpec,
): Promise<{ pid: number; results: Promise<StalledResult[]>; resume(): void }> {
	const proc = Bun.spawn(['node', SCRIPT, url, token, JSON.stringify(spec)], {
		stdin: 'pipe',
		stdout: 'pipe',
		stderr: 'inherit',
	})
	const reader = proc.stdout.getReader()
	const decoder = new TextDecoder()
	let text = ''
	const line = async (): Promise<string> => {
		for (;;) {
			const at = text.indexOf('\n')
			if (at >= 0) {
				const l = text.slice(0, at)
				text = text.slice(at + 1)
				return l
			}
			const { value, done } = await reader.read()
			if (done) throw new Error('stalled clients exited early')
			text += decoder.decode(value, { stream: true })
		}
	}
	if ((await line()) !== 'READY') throw new Error('stalled clients did not start')
	const results = line().then(async (l) => {
		await proc.exited
		return JSON.parse(l) as StalledResult[]
	})
	return {
		pid: proc.pid,
		results,
		resume() {
			proc.stdin.write('resume\n')
			void proc.stdin.end()
		},
	}
}
