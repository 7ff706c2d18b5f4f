import { SUBSCRIBE } from '../../common/wire/envelope'
import { GatewayErrors as E } from '../../common/wire/errors'
import { MAX_UPDATE_KINDS } from '../../common/wire/limits'
import { FilterErrors, filterJsonSchema } from './filter'

/**
 * The `subscribe` frame as the AsyncAPI document tells it (docs/live-updates.md): its fields, from
 * the definitions the gateway checks it with (src/server/gateway/subscriptions.ts: the kinds, `after`, the
 * filter of ./filter.ts), and every refusal it may get, word for word.
 */
export function subscribeFrameFields(): Record<string, Record<string, unknown>> {
	return {
		action: { const: SUBSCRIBE },
		updates: {
			type: 'array',
			items: { type: 'string' },
			minItems: 1,
			maxItems: MAX_UPDATE_KINDS,
			description: "TDLib's update kinds (default: UPDATE_KINDS)",
		},
		after: {
			type: 'integer',
			minimum: 0,
			description: 'the last seq seen: what came after it is sent first',
		},
		filter: filterJsonSchema(),
	}
}

/** What a `subscribe_error` may say. */
export const SUBSCRIBE_ERRORS: readonly string[] = [
	E.USERBOT_ID_REQUIRED,
	E.USERBOT_ID_NOT_INTEGER,
	E.USERBOT_NOT_FOUND,
	E.UPDATES_KINDS,
	E.AFTER_NOT_SEQ,
	...Object.values(FilterErrors),
]
