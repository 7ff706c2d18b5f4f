import * as v from 'valibot'
import { requestId as id, resultSchemas, tdUpdate } from '../../runtime/telegram/wire-schemas'

/**
 * The wire between an emulator backend and the cloud host (`cloud.sock`), the one module both sides
 * import, checked with valibot on arrival at either end (as `src/runtime/supervisor/protocol.ts` does for the
 * supervisor's). A backend opens a client (numbered by it, per connection) with the authorization
 * its TDLib folder keeps; requests and closes carry an id their result echoes; the host sends each
 * client's updates, and the authorization to write into the folder when the client logs in or out;
 * a host that stops says so first (`leaving`), and answers what it was sent until the backend says
 * it sends nothing more there (`moved`), then closes.
 */
const client = v.pipe(v.number(), v.integer(), v.minValue(1))
const auth = v.nullable(
	v.object({
		userId: v.pipe(v.number(), v.integer()),
		phone: v.pipe(v.string(), v.regex(/^\d{1,20}$/)),
		key: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{16,64}$/))),
	}),
)

export const OpenSchema = v.object({
	type: v.literal('open'),
	client,
	userbotId: v.pipe(v.number(), v.integer()),
	auth,
	/** The client's TDLib files folder: where `downloadFile` writes what it fetches. */
	files: v.optional(v.pipe(v.string(), v.maxLength(4096))),
})
export const InvokeSchema = v.object({
	type: v.literal('invoke'),
	id,
	client,
	request: v.looseObject({ _: v.pipe(v.string(), v.minLength(1), v.maxLength(128)) }),
})
export const CloseSchema = v.object({ type: v.literal('close'), id, client })
/** The answer to `leaving`: this backend sends nothing more on this connection. */
export const MovedSchema = v.object({ type: v.literal('moved') })

/** TDLib's error codes only: the cloud answers as TDLib would. */
const results = resultSchemas(v.pipe(v.number(), v.integer()))
export const ResultOkSchema = results.ok
export const ResultErrorSchema = results.error
export const UpdateSchema = v.object({
	type: v.literal('update'),
	client,
	update: tdUpdate,
})
export const AuthSchema = v.object({ type: v.literal('auth'), client, auth })
/** The host is stopping: what is in flight is answered, nothing new should come (ask the next host). */
export const LeavingSchema = v.object({ type: v.literal('leaving') })

export type OpenMessage = v.InferOutput<typeof OpenSchema>
export type InvokeMessage = v.InferOutput<typeof InvokeSchema>
export type CloseMessage = v.InferOutput<typeof CloseSchema>
export type BackendMessage = OpenMessage | InvokeMessage | CloseMessage | v.InferOutput<typeof MovedSchema>
export type ResultMessage = v.InferOutput<typeof ResultOkSchema> | v.InferOutput<typeof ResultErrorSchema>
export type UpdateMessage = v.InferOutput<typeof UpdateSchema>
export type AuthMessage = v.InferOutput<typeof AuthSchema>
export type HostMessage = ResultMessage | UpdateMessage | AuthMessage | v.InferOutput<typeof LeavingSchema>

const BACKEND: Record<string, v.GenericSchema<unknown, BackendMessage>> = {
	open: OpenSchema,
	invoke: InvokeSchema,
	close: CloseSchema,
	moved: MovedSchema,
}

function hostSchema(m: { type?: unknown; ok?: unknown }): v.GenericSchema<unknown, HostMessage> | undefined {
	if (m.type === 'result')
		return m.ok === true ? ResultOkSchema : m.ok === false ? ResultErrorSchema : undefined
	if (m.type === 'update') return UpdateSchema
	if (m.type === 'auth') return AuthSchema
	if (m.type === 'leaving') return LeavingSchema
	return undefined
}

/** A message's checked form, or why it is refused (the path and the rule, never the value). */
export type Checked<T> = { ok: true; message: T } | { ok: false; error: string }

function check<T>(schema: v.GenericSchema<unknown, T> | undefined, input: unknown): Checked<T> {
	if (!schema) return { ok: false, error: 'type: no such message' }
	const r = v.safeParse(schema, input)
	if (r.success) return { ok: true, message: r.output }
	const issue = r.issues[0]
	const path = issue.path?.map((p) => String(p.key)).join('.')
	return { ok: false, error: `${path || 'message'}: expected ${issue.expected ?? issue.type}` }
}

const typed = (input: unknown) =>
	typeof input === 'object' && input !== null ? (input as { type?: unknown; ok?: unknown }) : {}

/** Checks a message that arrived at the host. */
export function parseBackendMessage(input: unknown): Checked<BackendMessage> {
	const type = typed(input).type
	return check(typeof type === 'string' && Object.hasOwn(BACKEND, type) ? BACKEND[type] : undefined, input)
}

/** Checks a message that arrived at a backend. */
export function parseHostMessage(input: unknown): Checked<HostMessage> {
	return check(hostSchema(typed(input)), input)
}
