import * as v from 'valibot'

/**
 * The wire between the HTTP process and a supervisor: the one module both sides import. Every
 * message is a plain JSON object with a `type`; requests carry an `id` the reply echoes. Nothing
 * here knows the transport, so the same messages can ride a Unix socket, Bun IPC or a network bus.
 */

const id = v.pipe(v.number(), v.integer(), v.minValue(0))
const userbotId = v.pipe(v.number(), v.integer())
const tdRequest = v.looseObject({ _: v.pipe(v.string(), v.minLength(1)) })

export const InvokeSchema = v.object({
	type: v.literal('invoke'),
	id,
	userbotId,
	request: tdRequest,
})
export const StartSchema = v.object({
	type: v.literal('start'),
	id,
	userbotId,
	encryptionKey: v.string(),
})
export const StopSchema = v.object({
	type: v.literal('stop'),
	id,
	userbotId,
	logOut: v.boolean(),
	removeData: v.boolean(),
})
export const ShutdownSchema = v.object({ type: v.literal('shutdown'), id: v.optional(id) })

export const ParentMessageSchema = v.variant('type', [InvokeSchema, StartSchema, StopSchema, ShutdownSchema])

const errorCode = v.union([v.number(), v.string()])
export const ResultSchema = v.variant('ok', [
	v.object({ type: v.literal('result'), id, ok: v.literal(true), value: v.unknown() }),
	v.object({
		type: v.literal('result'),
		id,
		ok: v.literal(false),
		error: v.object({ code: errorCode, message: v.string() }),
	}),
])
export const AuthorizationStateSchema = v.object({
	type: v.literal('authorization_state'),
	userbotId,
	state: v.string(),
	detail: v.optional(v.record(v.string(), v.unknown())),
})
export const ReadySchema = v.object({
	type: v.literal('ready'),
	pid: v.number(),
	/** Proves the connection comes from the child the parent spawned (socket transport). */
	token: v.optional(v.string()),
})
export const LogSchema = v.object({
	type: v.literal('log'),
	level: v.picklist(['debug', 'info', 'warn', 'error']),
	msg: v.string(),
	fields: v.optional(v.record(v.string(), v.unknown())),
})

// `result` first: it is by far the most frequent message, and variant tries options in order.
export const ChildMessageSchema = v.union([ResultSchema, AuthorizationStateSchema, ReadySchema, LogSchema])

export type InvokeMessage = v.InferOutput<typeof InvokeSchema>
export type StartMessage = v.InferOutput<typeof StartSchema>
export type StopMessage = v.InferOutput<typeof StopSchema>
export type ShutdownMessage = v.InferOutput<typeof ShutdownSchema>
export type ParentMessage = v.InferOutput<typeof ParentMessageSchema>
export type ResultMessage = v.InferOutput<typeof ResultSchema>
export type AuthorizationStateMessage = v.InferOutput<typeof AuthorizationStateSchema>
export type ReadyMessage = v.InferOutput<typeof ReadySchema>
export type LogMessage = v.InferOutput<typeof LogSchema>
export type ChildMessage = v.InferOutput<typeof ChildMessageSchema>

/** `code` is numeric for TDLib's own errors, a `RuntimeError` code otherwise. */
export type WireError = { code: number | string; message: string }

export type Parsed<T> = { ok: true; message: T } | { ok: false; error: string; id?: number }

function parse<T>(schema: v.GenericSchema<unknown, T>, input: unknown): Parsed<T> {
	const r = v.safeParse(schema, input)
	if (r.success) return { ok: true, message: r.output }
	const issue = r.issues[0]
	const path = issue.path?.map((p) => String(p.key)).join('.')
	const error = path ? `${path}: ${issue.message}` : issue.message
	const raw = input as { id?: unknown } | null
	const rawId =
		typeof raw === 'object' && raw !== null && Number.isInteger(raw.id) ? (raw.id as number) : undefined
	return rawId === undefined ? { ok: false, error } : { ok: false, error, id: rawId }
}

/** Checks a message that arrived at the child. */
export const parseParentMessage = (input: unknown): Parsed<ParentMessage> => parse(ParentMessageSchema, input)
/** Checks a message that arrived at the parent. */
export const parseChildMessage = (input: unknown): Parsed<ChildMessage> => parse(ChildMessageSchema, input)
