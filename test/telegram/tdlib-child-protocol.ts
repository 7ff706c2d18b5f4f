import * as v from 'valibot'

/**
 * What the tests' TDLib child (`tdlib-child-main.ts`) and its harness (`tdlib-child.ts`) say to
 * each other over Bun's IPC, checked on arrival on both sides. Requests carry an id and get one
 * result each; the child's clients' updates, network set-up and TDLib's log lines are events.
 */
const Id = v.pipe(v.number(), v.integer(), v.minValue(1))
const TdObject = v.looseObject({ _: v.string() })
const ClientOptions = v.object({
	databaseDirectory: v.string(),
	filesDirectory: v.string(),
	encryptionKey: v.string(),
})

export const ParentMessage = v.variant('op', [
	v.object({ op: v.literal('create'), id: Id, client: Id, options: ClientOptions }),
	v.object({ op: v.literal('invoke'), id: Id, client: Id, request: TdObject }),
	v.object({ op: v.literal('close'), id: Id, client: Id }),
	v.object({ op: v.literal('judge'), id: Id, requests: v.array(v.looseObject({})) }),
	v.object({ op: v.literal('execute'), id: Id, request: TdObject }),
	v.object({ op: v.literal('log'), id: Id, verbosity: v.pipe(v.number(), v.integer(), v.minValue(0)) }),
	v.object({ op: v.literal('exit'), id: Id }),
])
export type ParentMessage = v.InferOutput<typeof ParentMessage>

const WireError = v.object({ code: v.optional(v.number()), message: v.string() })

export const ChildMessage = v.variant('type', [
	v.object({ type: v.literal('ready'), pid: v.number() }),
	v.object({
		type: v.literal('result'),
		id: Id,
		value: v.optional(v.unknown()),
		error: v.optional(WireError),
	}),
	v.object({ type: v.literal('update'), client: Id, update: TdObject }),
	v.object({ type: v.literal('network'), client: Id, error: v.optional(WireError) }),
	v.object({ type: v.literal('opened'), client: Id, error: v.optional(WireError) }),
	v.object({ type: v.literal('log'), level: v.number(), message: v.string() }),
])
export type ChildMessage = v.InferOutput<typeof ChildMessage>
export type WireError = v.InferOutput<typeof WireError>
