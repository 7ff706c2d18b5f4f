/**
 * JSON-lines logger. Fields whose names look secret are masked before anything is written, so a
 * careless `log.info('x', { password })` still leaks nothing.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'
export type LogFields = Record<string, unknown>

export interface Logger {
	debug(msg: string, fields?: LogFields): void
	info(msg: string, fields?: LogFields): void
	warn(msg: string, fields?: LogFields): void
	error(msg: string, fields?: LogFields): void
	child(fields: LogFields): Logger
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }
const SECRET = /pass(word)?|secret|token|key|authorization|cookie|session(id)?$|code$|hash/i

export function redact(value: unknown, depth = 0): unknown {
	if (depth > 4 || value === null || typeof value !== 'object') return value
	if (value instanceof Error) return { name: value.name, message: value.message }
	if (Array.isArray(value)) return value.map((x) => redact(x, depth + 1))
	const out: Record<string, unknown> = {}
	for (const [k, v] of Object.entries(value)) out[k] = SECRET.test(k) ? '[redacted]' : redact(v, depth + 1)
	return out
}

export function createLogger(
	level: LogLevel = 'info',
	base: LogFields = {},
	write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Logger {
	const min = ORDER[level]
	const emit = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: LogFields) => {
		if (ORDER[lvl] < min) return
		const record = {
			time: new Date().toISOString(),
			level: lvl,
			msg,
			...base,
			...(redact(fields ?? {}) as LogFields),
		}
		write(JSON.stringify(record))
	}
	return {
		debug: (m, f) => emit('debug', m, f),
		info: (m, f) => emit('info', m, f),
		warn: (m, f) => emit('warn', m, f),
		error: (m, f) => emit('error', m, f),
		child: (fields) => createLogger(level, { ...base, ...fields }, write),
	}
}
