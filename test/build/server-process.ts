import type { Subprocess } from 'bun'

/**
 * A server started as its own process (the compiled binary, `bun src/entry/main.ts`, Deno): waits for
 * its `listening` log line and keeps what it printed, so a failure shows why.
 */
export interface ServerProcess {
	url: string
	proc: Subprocess<'ignore', 'pipe', 'pipe'>
	/** Everything it wrote to stdout and stderr so far. */
	output(): string
	/** SIGTERM, then its exit code (SIGKILL after 10 s). */
	stop(): Promise<number>
}

export interface StartProcessOptions {
	cwd: string
	env: Record<string, string>
	timeoutMs?: number
}

export async function startServerProcess(cmd: string[], opts: StartProcessOptions): Promise<ServerProcess> {
	const proc = Bun.spawn(cmd, {
		cwd: opts.cwd,
		env: opts.env,
		stdin: 'ignore',
		stdout: 'pipe',
		stderr: 'pipe',
	})
	let text = ''
	let resolveUrl: (url: string) => void = () => {}
	const listening = new Promise<string>((resolve) => {
		resolveUrl = resolve
	})
	const collect = async (stream: ReadableStream<Uint8Array>) => {
		const decoder = new TextDecoder()
		let rest = ''
		for await (const chunk of stream) {
			const piece = decoder.decode(chunk, { stream: true })
			text += piece
			const lines = (rest + piece).split('\n')
			rest = lines.pop() ?? ''
			for (const line of lines) {
				const url = listeningUrl(line)
				if (url) resolveUrl(url)
			}
		}
	}
	const streams = Promise.all([collect(proc.stdout), collect(proc.stderr)])
	const stop = async () => {
		if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM')
		const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000)
		const code = await proc.exited
		clearTimeout(timer)
		await streams.catch(() => undefined)
		return code
	}
	const timeoutMs = opts.timeoutMs ?? 30_000
	let timer: ReturnType<typeof setTimeout> | undefined
	const failed = Promise.race([
		proc.exited.then(async (code) => {
			await streams.catch(() => undefined)
			return `exited with ${code}`
		}),
		new Promise<string>((resolve) => {
			timer = setTimeout(() => resolve(`not listening after ${timeoutMs} ms`), timeoutMs)
		}),
	])
	const outcome = await Promise.race([listening.then((url) => ({ url })), failed.then((why) => ({ why }))])
	clearTimeout(timer)
	if ('why' in outcome) {
		await stop()
		throw new Error(`${cmd.join(' ')}: ${outcome.why}\n${text.slice(-2000)}`)
	}
	return { url: outcome.url, proc, output: () => text, stop }
}

/** The `url` of the server's `listening` log line (a JSON line), if `line` is that line. */
function listeningUrl(line: string): string | null {
	if (!line.includes('"listening"')) return null
	try {
		const parsed = JSON.parse(line) as { msg?: unknown; url?: unknown }
		return parsed.msg === 'listening' && typeof parsed.url === 'string' ? parsed.url : null
	} catch {
		return null
	}
}

/** Runs a command to its end: exit code, stdout, stderr. */
export async function runToEnd(cmd: string[], opts: StartProcessOptions) {
	const proc = Bun.spawn(cmd, {
		cwd: opts.cwd,
		env: opts.env,
		stdin: 'ignore',
		stdout: 'pipe',
		stderr: 'pipe',
	})
	const timer = setTimeout(() => proc.kill('SIGKILL'), opts.timeoutMs ?? 30_000)
	const [code, stdout, stderr] = await Promise.all([
		proc.exited,
		new Response(proc.stdout).text(),
		new Response(proc.stderr).text(),
	])
	clearTimeout(timer)
	return { code, stdout, stderr }
}
