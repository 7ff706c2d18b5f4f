import * as v from 'valibot'
import { TdProxySchema } from '../telegram/proxy'
import { RuntimeError, TdError } from '../telegram/types'
import { requestId as id, resultSchemas, tdUpdate, updateKind } from '../telegram/wire-schemas'

/**
 * The wire between the HTTP process and a supervisor: the one module both sides import. Every
 * message is a plain JSON object with a `type`; requests carry an `id` the reply echoes. Nothing
 * here knows the transport, so the same messages can ride a Unix socket, Bun IPC or a network bus.
 */

const userbotId = v.pipe(v.number(), v.integer())
const tdRequest = v.looseObject({ _: v.pipe(v.string(), v.minLength(1)) })

export const InvokeSchema = v.object({
	type: v.literal('invoke'),
	id,
	userbotId,
	request: tdRequest,
	/** The time the sender still waits (the bus: a shard's own deadline matches the gateway's). */
	timeoutMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
	/** Who sends it (a command's name, `userbots:<step>`): the bus's shard allows its methods only. */
	label: v.optional(v.pipe(v.string(), v.maxLength(100))),
})
export const StartSchema = v.object({
	type: v.literal('start'),
	id,
	userbotId,
	encryptionKey: v.string(),
	/** The proxy all of the client's connections go through, applied before its first one. */
	proxy: v.optional(TdProxySchema),
})
export const StopSchema = v.object({
	type: v.literal('stop'),
	id,
	userbotId,
	logOut: v.boolean(),
	removeData: v.boolean(),
})
export const ShutdownSchema = v.object({ type: v.literal('shutdown'), id: v.optional(id) })
/**
 * The kinds of TDLib update the parent wants (the update buffer's and any subscriber's): the child
 * forwards those and drops the rest, so the many other updates TDLib sends never cross the wire.
 */
export const UpdateFilterSchema = v.object({
	type: v.literal('update_filter'),
	kinds: v.array(updateKind),
})

/**
 * A shard's fence (the bus): close every client unless told again within `ms`. The shard sends it
 * while its heartbeats reach the bus, with the time until it must count itself cut off; a shard
 * process that freezes (a pause, a stuck event loop) stops telling, and its child closes the
 * clients itself before the other shards take its userbots over.
 */
export const FenceSchema = v.object({
	type: v.literal('fence'),
	ms: v.pipe(v.number(), v.integer(), v.minValue(0)),
})

/**
 * What a child runs with, told by its parent once it has said hello (the child reads no setting of
 * its own from the environment: the parent's configuration, checked there, is the one source).
 */
export const ChildSettingsSchema = v.object({
	backend: v.picklist(['tdlib', 'emulator']),
	dataDir: v.pipe(v.string(), v.minLength(1)),
	/** Real TDLib's API credentials (absent on the emulator). */
	telegram: v.optional(v.object({ apiId: v.pipe(v.number(), v.integer()), apiHash: v.string() })),
	/** Real TDLib's clients keep their network held for good (`networkTypeNone`). */
	offline: v.boolean(),
	/** Tests: the file each client's start and stop is appended to, and this child's name in it. */
	runLog: v.optional(v.string()),
	label: v.optional(v.string()),
	/** The emulator's flood limits (`EMULATOR_FLOOD_LIMITS`). */
	emulatorFloodLimits: v.optional(v.string()),
	/** A descriptor limit below the hard one (`CHILD_MAX_FDS`). */
	maxFds: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
	/** Each client probed this often, and restarted when it does not answer within the timeout. */
	probe: v.optional(
		v.object({
			intervalMs: v.pipe(v.number(), v.integer(), v.minValue(1)),
			timeoutMs: v.pipe(v.number(), v.integer(), v.minValue(1)),
		}),
	),
})
export type ChildSettings = v.InferOutput<typeof ChildSettingsSchema>
export const SettingsSchema = v.object({ type: v.literal('settings'), settings: ChildSettingsSchema })

export const ParentMessageSchema = v.variant('type', [
	SettingsSchema,
	InvokeSchema,
	StartSchema,
	StopSchema,
	ShutdownSchema,
	UpdateFilterSchema,
	FenceSchema,
])

/** TDLib's error code, or the supervisor's own (`runtime_down`, ...). */
const results = resultSchemas(v.union([v.number(), v.string()]))
export const ResultOkSchema = results.ok
export const ResultErrorSchema = results.error
export const ResultSchema = v.variant('ok', [ResultOkSchema, ResultErrorSchema])
export const AuthorizationStateSchema = v.object({
	type: v.literal('authorization_state'),
	userbotId,
	state: v.string(),
	detail: v.optional(v.record(v.string(), v.unknown())),
})
/** A TDLib update of a kind the parent asked for, as TDLib (or the emulator) sent it. */
export const UpdateSchema = v.object({
	type: v.literal('update'),
	userbotId,
	update: tdUpdate,
})
/** The child's first message: its settings come in answer. */
export const HelloSchema = v.object({
	type: v.literal('hello'),
	pid: v.number(),
	/** Proves the connection comes from the child the parent spawned (socket transport). */
	token: v.optional(v.string()),
})
/** The child runs its settings: it takes requests from now on. */
export const ReadySchema = v.object({
	type: v.literal('ready'),
	pid: v.number(),
	/** The clients its descriptor limit allows, and that limit in words (docs/capacity.md). */
	capacity: v.optional(
		v.object({
			clients: v.pipe(v.number(), v.integer(), v.minValue(0)),
			limit: v.picklist(['descriptors', 'memory']),
			reason: v.pipe(v.string(), v.maxLength(300)),
		}),
	),
})
export const LogSchema = v.object({
	type: v.literal('log'),
	level: v.picklist(['debug', 'info', 'warn', 'error']),
	msg: v.string(),
	fields: v.optional(v.record(v.string(), v.unknown())),
})

/**
 * One client of the child stopped answering (its liveness probe timed out): it is being started
 * again, alone; its requests in flight have been answered with `runtime_down`.
 */
export const ClientRestartingSchema = v.object({
	type: v.literal('client_restarting'),
	userbotId,
})

export const ChildMessageSchema = v.variant('type', [
	HelloSchema,
	ResultSchema,
	AuthorizationStateSchema,
	UpdateSchema,
	ReadySchema,
	LogSchema,
	ClientRestartingSchema,
])

export type InvokeMessage = v.InferOutput<typeof InvokeSchema>
export type StartMessage = v.InferOutput<typeof StartSchema>
export type StopMessage = v.InferOutput<typeof StopSchema>
export type ShutdownMessage = v.InferOutput<typeof ShutdownSchema>
export type UpdateFilterMessage = v.InferOutput<typeof UpdateFilterSchema>
export type UpdateMessage = v.InferOutput<typeof UpdateSchema>
export type ParentMessage = v.InferOutput<typeof ParentMessageSchema>
export type ResultMessage = v.InferOutput<typeof ResultSchema>
export type AuthorizationStateMessage = v.InferOutput<typeof AuthorizationStateSchema>
export type ReadyMessage = v.InferOutput<typeof ReadySchema>
export type SettingsMessage = v.InferOutput<typeof SettingsSchema>
export type LogMessage = v.InferOutput<typeof LogSchema>
export type ChildMessage = v.InferOutput<typeof ChildMessageSchema>

/** `code` is numeric for TDLib's own errors, a `RuntimeError` code otherwise. */
export type WireError = { code: number | string; message: string }

/** A failure in the child as it crosses the wire: TDLib's code and message kept verbatim. */
export function toWireError(err: unknown): WireError {
	if (err instanceof TdError) return { code: err.code, message: err.message }
	// Refusals for capacity and for a folder held elsewhere keep their code: the parent tells them
	// apart from a failure.
	if (err instanceof RuntimeError && (err.code === 'capacity' || err.code === 'held_elsewhere'))
		return { code: err.code, message: err.message }
	const e = err as { code?: unknown; message?: unknown } | null
	if (e && typeof e.code === 'number' && typeof e.message === 'string')
		return { code: e.code, message: e.message }
	return { code: 'unavailable', message: err instanceof Error ? err.message : String(err) }
}

const RUNTIME_CODES = new Set([
	'timeout',
	'runtime_down',
	'no_client',
	'unavailable',
	'bad_request',
	'capacity',
	'held_elsewhere',
])

/**
 * The bus's own wire code: the shard asked does not own the userbot (the sender's view of the
 * shards is behind), so the sender asks again by its newer view.
 */
export const MOVED = 'moved'

/** The parent's side of `toWireError`: a `TdError` for TDLib's errors, a `RuntimeError` otherwise. */
export function fromWireError(e: WireError): Error {
	if (typeof e.code === 'number') return new TdError(e.code, e.message)
	const code = RUNTIME_CODES.has(e.code) ? (e.code as RuntimeError['code']) : 'unavailable'
	return new RuntimeError(code, e.message)
}

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

/*
 * The parsers read the discriminator first and run the one schema it names: a variant (or union)
 * tries its options in turn and builds a key set per call, which made checking the replies ~14% of
 * the HTTP process's CPU under load. A message whose discriminator names nothing goes through the
 * whole schema, for its error message. Either way every message is checked by the schemas above.
 */
type Discriminated = { type?: unknown; ok?: unknown }

const PARENT_SCHEMAS: Record<string, v.GenericSchema<unknown, ParentMessage>> = {
	settings: SettingsSchema,
	invoke: InvokeSchema,
	start: StartSchema,
	stop: StopSchema,
	shutdown: ShutdownSchema,
	update_filter: UpdateFilterSchema,
	fence: FenceSchema,
}

function childSchema(m: Discriminated): v.GenericSchema<unknown, ChildMessage> | undefined {
	switch (m.type) {
		case 'result':
			return m.ok === true ? ResultOkSchema : m.ok === false ? ResultErrorSchema : undefined
		case 'authorization_state':
			return AuthorizationStateSchema
		case 'update':
			return UpdateSchema
		case 'hello':
			return HelloSchema
		case 'ready':
			return ReadySchema
		case 'log':
			return LogSchema
		case 'client_restarting':
			return ClientRestartingSchema
		default:
			return undefined
	}
}

const discriminated = (input: unknown): Discriminated | undefined =>
	typeof input === 'object' && input !== null ? (input as Discriminated) : undefined

/** Checks a message that arrived at the child. */
export function parseParentMessage(input: unknown): Parsed<ParentMessage> {
	const type = discriminated(input)?.type
	const schema =
		typeof type === 'string' && Object.hasOwn(PARENT_SCHEMAS, type) ? PARENT_SCHEMAS[type] : undefined
	return parse(schema ?? ParentMessageSchema, input)
}

/** Checks a message that arrived at the parent. */
export function parseChildMessage(input: unknown): Parsed<ChildMessage> {
	const m = discriminated(input)
	return parse((m && childSchema(m)) ?? ChildMessageSchema, input)
}
