import type { starSubscriptionPricing$Input } from 'tdlib-types'
import {
	checkTdObject,
	defineCommand,
	fields,
	optionalString,
	requiredInt,
	requiredValue,
	TdObjectError,
	tdObjectSchema,
	tdSlot,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { ChatAdminErrors as E } from './errors'

const PRICING = tdSlot('starSubscriptionPricing')

/**
 * `subscription_pricing`: a `starSubscriptionPricing` (its `@type` may be left out) checked by the
 * validator, with `period` and `star_count` both present. A missing object reads as a missing period
 * (docs/tdlib-mapping.md#chat-administration-and-invites). Values out of TDLib's range are TDLib's to refuse
 * ("Invalid subscription pricing specified").
 */
const pricing = v.pipe(
	requiredValue(E.PRICING_PERIOD_REQUIRED, {
		...tdObjectSchema(PRICING),
		required: ['period', 'star_count'],
	}),
	v.rawTransform(({ dataset, addIssue, NEVER }) => {
		try {
			const checked = checkTdObject<starSubscriptionPricing$Input>(
				dataset.value,
				PRICING,
				'subscription_pricing',
			)
			if (checked.period === undefined) throw new TdObjectError(E.PRICING_PERIOD_REQUIRED)
			if (checked.star_count === undefined) throw new TdObjectError(E.PRICING_STAR_COUNT_REQUIRED)
			return {
				_: 'starSubscriptionPricing' as const,
				period: checked.period,
				star_count: checked.star_count,
			}
		} catch (err) {
			if (!(err instanceof TdObjectError)) throw err
			addIssue({ message: err.message })
			return NEVER
		}
	}),
)

/** `create_chat_subscription_invite_link` → `createChatSubscriptionInviteLink` (channels); result `chatInviteLink`. */
export const createChatSubscriptionInviteLink = defineCommand({
	name: 'create_chat_subscription_invite_link',
	policy: { action: 'write' },
	summary: 'A paid (Star subscription) invite link of a channel.',
	result: { description: 'The new link.', tdlib: 'chatInviteLink' },
	errors: [E.PRICING_STAR_COUNT_REQUIRED],
	examples: [
		{ chat_id: -1000000003002, name: 'premium', subscription_pricing: { period: 2592000, star_count: 100 } },
	],
	methods: ['createChatSubscriptionInviteLink', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		name: optionalString('name'),
		subscription_pricing: pricing,
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'createChatSubscriptionInviteLink',
			chat_id: input.chat_id,
			name: input.name ?? '',
			subscription_pricing: input.subscription_pricing,
		}),
})
