import * as v from 'valibot'

/**
 * The shapes both wires that carry TDLib requests between processes share: the supervisor's
 * (src/runtime/supervisor/protocol.ts) and the emulator's cloud socket (emulator/cloud/protocol.ts). Each wire
 * checks every message it receives against them.
 */

/** A request's number on its connection, which its result echoes. */
export const requestId = v.pipe(v.number(), v.integer(), v.minValue(0))

/** The name of a kind of TDLib update: `updateNewMessage`, ... */
export const updateKind = v.pipe(v.string(), v.regex(/^update[A-Z][A-Za-z]*$/))

/** A TDLib update as it crosses: an object whose `_` names an update kind, the rest as TDLib sent it. */
export const tdUpdate = v.looseObject({ _: updateKind })

/**
 * A request's result, by the id it carried: its value, or an error whose code is as the wire has it
 * (TDLib's number; the supervisor's own codes are strings).
 */
export function resultSchemas<TCode extends v.GenericSchema<unknown, number | string>>(code: TCode) {
	return {
		ok: v.object({ type: v.literal('result'), id: requestId, ok: v.literal(true), value: v.unknown() }),
		error: v.object({
			type: v.literal('result'),
			id: requestId,
			ok: v.literal(false),
			error: v.object({ code, message: v.string() }),
		}),
	}
}
