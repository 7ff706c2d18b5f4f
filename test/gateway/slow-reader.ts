import { join } from 'node:path'

/** Drives test/gateway/slow-reader.mjs, a Node WebSocket client that can really stop reading. */
export interface Received {
	type: string
	request_id?: string | number
	seq?: number
}

export interface SlowReader {
	send(frame: unknown): void
	/** Sends the frames 100 at a time, 5 ms apart; resolves once all are written. */
	batch(frames: unknown[]): Promise<void>
	pause(): void
	resume(): void
	/** Reads until the close, `enough` messages, or `ms`; then the client exits. */
	end(
		ms: number,
		enough?: number,
	): Promise<{ received: Received[]; close: { code: number; reason: string } | null }>
}

const READER = join(import.meta.dir, 'slow-reader.mjs')

export async function slowReader(url: string, token: string): Promise<SlowReader> {
	const proc = Bun.spawn(['node', READER, url, token], { stdin: 'pipe', stdout: 'pipe', stderr: 'inherit' })
	const reader = proc.stdout.getReader()
	const decoder = new TextDecoder()
	let pending = ''
	const nextLine = async (): Promise<string> => {
		for (;;) {
			const at = pending.indexOf('\n')
			if (at >= 0) {
				const line = pending.slice(0, at)
				pending = pending.slice(at + 1)
				return line
			}
			const { value, done } = await reader.read()
			if (done) throw new Error('slow reader exited')
			pending += decoder.decode(value, { stream: true })
		}
	}
	const write = (line: string) => {
		proc.stdin.write(`${line}\n`)
		proc.stdin.flush()
	}
	if ((await nextLine()) !== 'READY') throw new Error('slow reader did not connect')
	return {
		send: (frame) => write(JSON.stringify(frame)),
		async batch(frames) {
			write(`BATCH ${frames.length}`)
			for (const f of frames) write(JSON.stringify(f))
			if ((await nextLine()) !== 'SENT') throw new Error('slow reader did not send its batch')
		},
		pause: () => write('PAUSE'),
		resume: () => write('RESUME'),
		async end(ms, enough) {
			write(enough === undefined ? `END ${ms}` : `END ${ms} ${enough}`)
			const result = JSON.parse(await nextLine())
			await proc.exited
			return result
		},
	}
}
