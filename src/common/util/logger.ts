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
	/** Whether a line of this level is written (a line that costs work to build can be skipped). */
	writes(level: Exclude<LogLevel, 'silent'>): boolean
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }
/**
 * Secret-looking field names. `code` alone, `*_code` (recovery_code, phone_code) and the camelCase
 * login codes are one-time secrets; other names that merely end in "code" (statusCode, tdCode) are not.
 */
const SECRET =
	/pass(word)?|secret|token|key|authorization|cookie|session(id)?$|hash|^code$|_code$|(phone|email|recovery|auth|login|otp|sms|verification|reset)code$/i
/** Nesting deeper than this is replaced by TRUNCATED, never written unmasked. */
const MAX_DEPTH = 4
const TRUNCATED = '[truncated]'
const PARAMS = /\r?\nparams:[\s\S]*$/

/**
 * A query error (drizzle's DrizzleQueryError, or anything whose message is drizzle's "Failed
 * query: ...\nparams: ...") carries the bound parameters: tokens, password hashes. Only its name,
 * the query text and the driver's message are kept.
 */
function isQueryError(error: Error): boolean {
	return ('query' in error && 'params' in error) || error.message.startsWith('Failed query')
}

/** The message without a trailing "params: ..." block, wherever such a message came from. */
const withoutParams = (message: string) => message.replace(PARAMS, '')

function redactError(error: Error, depth: number): Record<string, unknown> {
	const name = error.name === 'Error' && error.constructor.name ? error.constructor.name : error.name
	const cause: unknown = error.cause
	if (isQueryError(error)) {
		const query =
			'query' in error && typeof error.query === 'string'
				? error.query
				: withoutParams(error.message).replace(/^Failed query: /, '')
		const out: Record<string, unknown> = { name, query }
		if (cause instanceof Error) out.cause = withoutParams(cause.message)
		return out
	}
	const out: Record<string, unknown> = { name, message: withoutParams(error.message) }
	if (cause instanceof Error) out.cause = depth >= MAX_DEPTH ? TRUNCATED : redactError(cause, depth + 1)
	return out
}

export function redact(value: unknown, depth = 0): unknown {
	if (value === null || typeof value !== 'object') return value
	if (depth > MAX_DEPTH) return TRUNCATED
	if (value instanceof Error) return redactError(value, depth)
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
	const fixed = redact(base) as LogFields
	const emit = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: LogFields) => {
		if (ORDER[lvl] < min) return
		const record = {
			time: new Date().toISOString(),
			level: lvl,
			msg,
			...fixed,
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
		writes: (lvl) => ORDER[lvl] >= min,
	}
}
