import type { Message, Messages } from 'tdlib-types'
import * as v from 'valibot'
import { TdError, type TdInvoke } from '../../src/telegram/types'
import {
	CommandError,
	defineCommand,
	fields,
	formattedText,
	optionalBool,
	requiredInt,
	requiredIntList,
} from './deps'
import { MessagesErrors as E } from './errors'

const has = (o: Record<string, unknown>, key: string) => o[key] !== undefined && o[key] !== null
const nonEmptyIfList = (o: Record<string, unknown>, key: string) =>
	!Array.isArray(o[key]) || o[key].length > 0

/** The §7 checks in the order the table lists them, then the typed fields. */
const ForwardInput = v.pipe(
	v.looseObject({}),
	v.check((o) => has(o, 'to_chat_ids'), E.TO_CHAT_IDS_REQUIRED),
	v.check((o) => has(o, 'message_ids'), E.MESSAGE_IDS_REQUIRED),
	v.check((o) => nonEmptyIfList(o, 'to_chat_ids'), E.TO_CHAT_IDS_EMPTY),
	v.check((o) => nonEmptyIfList(o, 'message_ids'), E.MESSAGE_IDS_EMPTY),
	v.check((o) => has(o, 'from_chat_id'), E.FROM_CHAT_ID_REQUIRED),
	fields({
		to_chat_ids: requiredIntList('to_chat_ids', E.TO_CHAT_IDS_EMPTY, E.TO_CHAT_IDS_REQUIRED),
		from_chat_id: requiredInt('from_chat_id', E.FROM_CHAT_ID_REQUIRED),
		message_ids: requiredIntList('message_ids', E.MESSAGE_IDS_EMPTY, E.MESSAGE_IDS_REQUIRED),
		send_copy: optionalBool('send_copy'),
		remove_caption: optionalBool('remove_caption'),
		new_caption: v.optional(v.unknown()),
		show_caption_above_media: optionalBool('show_caption_above_media'),
	}),
)
type ForwardInput = v.InferOutput<typeof ForwardInput>

export interface ForwardResult {
	to_chat_id: number
	messages?: Messages['messages']
	error?: string
}

async function forwardTo(
	input: ForwardInput,
	ids: number[],
	toChatId: number,
	invoke: TdInvoke,
): Promise<Messages['messages']> {
	if (input.new_caption === undefined && input.show_caption_above_media === undefined) {
		const result = await invoke({
			_: 'forwardMessages',
			chat_id: toChatId,
			from_chat_id: input.from_chat_id,
			message_ids: ids,
			send_copy: input.send_copy ?? false,
			remove_caption: input.remove_caption ?? false,
		})
		return result.messages
	}
	// forwardMessages cannot replace a caption: a copy per message through inputMessageForwarded.
	const messages: Array<Message | null> = []
	for (const id of ids) {
		messages.push(
			await invoke({
				_: 'sendMessage',
				chat_id: toChatId,
				input_message_content: {
					_: 'inputMessageForwarded',
					from_chat_id: input.from_chat_id,
					message_id: id,
					copy_options: {
						_: 'messageCopyOptions',
						send_copy: true,
						replace_caption: true,
						new_caption: formattedText(input.new_caption),
						new_show_caption_above_media: input.show_caption_above_media === true,
					},
				},
			}),
		)
	}
	return messages
}

/**
 * `forward_message`: one `forwardMessages` per target, message ids sorted and unique (TDLib wants them
 * strictly increasing). Result `[{to_chat_id, messages}]` in the order of `to_chat_ids`. When a target
 * fails, the error event carries the first TDLib error and every target's outcome as `result`.
 */
export const forwardMessage = defineCommand({
	name: 'forward_message',
	input: ForwardInput,
	async run(input, ctx) {
		const ids = [...new Set(input.message_ids)].sort((a, b) => a - b)
		const outcomes = await Promise.allSettled(
			input.to_chat_ids.map((to) => forwardTo(input, ids, to, ctx.invoke)),
		)
		const results: ForwardResult[] = []
		let firstError: unknown
		outcomes.forEach((outcome, i) => {
			const to_chat_id = input.to_chat_ids[i] as number
			if (outcome.status === 'fulfilled') results.push({ to_chat_id, messages: outcome.value })
			else {
				firstError ??= outcome.reason
				results.push({
					to_chat_id,
					error: outcome.reason instanceof TdError ? outcome.reason.message : 'failed',
				})
			}
		})
		if (firstError === undefined) return results
		// A runtime failure (deadline, supervisor down) is the gateway's to word; TDLib's go out verbatim.
		if (!(firstError instanceof TdError) || results.every((r) => r.error !== undefined)) throw firstError
		throw new CommandError(firstError.message, results)
	},
})
