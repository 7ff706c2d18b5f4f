import type { Message, messageSendOptions$Input } from 'tdlib-types'
import type { FormattedText, TdInvoke } from 'userbot-gateway/plugin'
import {
	CommandError,
	defineCommand,
	documented,
	fields,
	optionalBool,
	requiredInt,
	requiredIntList,
	tdObjectField,
	tdSlot,
	textField,
	wordError,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { MessagesErrors as E, MAX_CAPTIONED_COPIES, MAX_MESSAGE_IDS, MAX_TO_CHAT_IDS } from './errors'
import { parsedText, parseModeField } from './parse-mode'
import { SENT_UPDATES, type SentTracker, trackSent, waitSentField } from './wait-sent'

const has = (o: Record<string, unknown>, key: string) => o[key] !== undefined && o[key] !== null
const nonEmptyIfList = (o: Record<string, unknown>, key: string) =>
	!Array.isArray(o[key]) || o[key].length > 0

/**
 * The protocol's checks in the order its error table lists them (docs/protocol.md#error-strings), then the
 * typed fields.
 */
const ForwardInput = v.pipe(
	v.looseObject({}),
	v.check((o) => has(o, 'to_chat_ids'), E.TO_CHAT_IDS_REQUIRED),
	v.check((o) => has(o, 'message_ids'), E.MESSAGE_IDS_REQUIRED),
	v.check((o) => nonEmptyIfList(o, 'to_chat_ids'), E.TO_CHAT_IDS_EMPTY),
	v.check((o) => nonEmptyIfList(o, 'message_ids'), E.MESSAGE_IDS_EMPTY),
	v.check((o) => has(o, 'from_chat_id'), E.FROM_CHAT_ID_REQUIRED),
	fields({
		to_chat_ids: requiredIntList('to_chat_ids', E.TO_CHAT_IDS_EMPTY, E.TO_CHAT_IDS_REQUIRED, {
			max: MAX_TO_CHAT_IDS,
			tooMany: E.TO_CHAT_IDS_TOO_MANY,
		}),
		from_chat_id: requiredInt('from_chat_id', E.FROM_CHAT_ID_REQUIRED),
		message_ids: requiredIntList('message_ids', E.MESSAGE_IDS_EMPTY, E.MESSAGE_IDS_REQUIRED, {
			max: MAX_MESSAGE_IDS,
			tooMany: E.MESSAGE_IDS_TOO_MANY,
		}),
		send_copy: documented(optionalBool('send_copy'), { default: false }),
		remove_caption: documented(optionalBool('remove_caption'), { default: false }),
		new_caption: textField('new_caption'),
		parse_mode: parseModeField,
		show_caption_above_media: optionalBool('show_caption_above_media'),
		options: tdObjectField<messageSendOptions$Input>('options', tdSlot('messageSendOptions')),
		wait_sent: waitSentField,
	}),
	v.check(
		(o) =>
			(o.new_caption === undefined && o.show_caption_above_media === undefined) ||
			o.to_chat_ids.length * new Set(o.message_ids).size <= MAX_CAPTIONED_COPIES,
		E.CAPTIONED_COPIES_TOO_MANY,
	),
)
type ForwardInput = v.InferOutput<typeof ForwardInput>

/**
 * One target's outcome. A failed target has `error`; with `new_caption` it may also have `messages`:
 * the copies made before the failure.
 */
export interface ForwardResult {
	to_chat_id: number
	messages?: Array<Message | null>
	error?: string
}

/** The caption of a message with media (photo, video, document...), or undefined when it has none. */
function captionOf(message: Message): FormattedText | undefined {
	const content = message.content as { caption?: FormattedText }
	const caption = content.caption
	return caption ? { _: 'formattedText', text: caption.text, entities: caption.entities } : undefined
}

/** A target's messages so far and, if it failed, why. */
interface Outcome {
	messages: Array<Message | null>
	error?: unknown
}

interface Forwarding {
	input: ForwardInput
	/** The message ids, unique and strictly increasing (as TDLib wants them). */
	ids: number[]
	/** `new_caption` as TDLib will have it (parsed once, with `parse_mode`). */
	replacement?: FormattedText
	invoke: TdInvoke
	signal: AbortSignal
}

async function forwardTo(f: Forwarding, toChatId: number): Promise<Outcome> {
	const { input, ids, invoke, signal, replacement } = f
	if (input.new_caption === undefined && input.show_caption_above_media === undefined) {
		try {
			const result = await invoke({
				_: 'forwardMessages',
				chat_id: toChatId,
				from_chat_id: input.from_chat_id,
				message_ids: ids,
				send_copy: input.send_copy ?? false,
				remove_caption: input.remove_caption ?? false,
				options: input.options,
			})
			return { messages: result.messages }
		} catch (error) {
			return { messages: [], error }
		}
	}
	// forwardMessages cannot replace a caption or move it: a copy per message through
	// inputMessageForwarded. A failure stops this target, keeping the copies already made.
	const messages: Array<Message | null> = []
	for (const id of ids) {
		if (signal.aborted) return { messages, error: signal.reason }
		try {
			// TDLib moves a caption above the media only while replacing it: without a new caption, the
			// message's own caption is the replacement, so the copy keeps what it said.
			const caption =
				replacement ??
				captionOf(await invoke({ _: 'getMessage', chat_id: input.from_chat_id, message_id: id }))
			messages.push(
				await invoke({
					_: 'sendMessage',
					chat_id: toChatId,
					options: input.options,
					input_message_content: {
						_: 'inputMessageForwarded',
						from_chat_id: input.from_chat_id,
						message_id: id,
						copy_options: {
							_: 'messageCopyOptions',
							send_copy: true,
							replace_caption: caption !== undefined,
							new_caption: caption,
							new_show_caption_above_media: input.show_caption_above_media === true,
						},
					},
				}),
			)
		} catch (error) {
			return { messages, error }
		}
	}
	return { messages }
}

/**
 * `wait_sent`: a target's messages once Telegram has each (the final ones). One it refused is null
 * in its place and the target's error is TDLib's; the rest of the target stays as it went.
 */
async function settled(tracker: SentTracker, outcome: Outcome): Promise<Outcome> {
	const all = await Promise.allSettled(
		outcome.messages.map((m) => (m ? tracker.settle(m) : Promise.resolve(null))),
	)
	let error = outcome.error
	const messages = all.map((r) => {
		if (r.status === 'fulfilled') return r.value
		error ??= r.reason
		return null
	})
	// Nothing of the target went through: it is a failed target, as when TDLib refused at once.
	return { messages: messages.some((m) => m !== null) ? messages : [], error }
}

/**
 * `forward_message`: one `forwardMessages` per target, message ids sorted and unique (TDLib wants them
 * strictly increasing). Targets are forwarded to one at a time, in the order of `to_chat_ids`, until
 * the command's deadline passes or its socket closes (`ctx.signal`): a frame never has more than one
 * TDLib request in flight. Result `[{to_chat_id, messages}]` in the order of `to_chat_ids`.
 *
 * With `wait_sent`, the command answers once Telegram has every forwarded message (each target's
 * `messages` the final ones); a message Telegram refused (`updateMessageSendFailed`) fails its target
 * as a refusal of TDLib's would. Every target is sent first, then all are waited for together.
 *
 * When a target fails and another forwarded anything, the error event carries the first failure,
 * worded as the gateway words it, and every target's outcome as `result`, so that a retry can skip
 * what went through. When nothing went through, the first failure is the error event alone.
 */
export const forwardMessage = defineCommand({
	name: 'forward_message',
	policy: { action: 'write' },
	summary: 'Forwards (or copies) messages of one chat to each of the target chats in turn.',
	result: {
		description:
			'For each target, in order: `{to_chat_id, messages}`; a failure after some targets went through carries every outcome (`error` per failed target). With `wait_sent`, the final messages once Telegram has them.',
		schema: {
			type: 'array',
			items: {
				type: 'object',
				properties: {
					to_chat_id: { type: 'integer' },
					messages: { type: 'array', items: { type: ['object', 'null'] } },
					error: { type: 'string' },
				},
				required: ['to_chat_id'],
			},
		},
	},
	examples: [
		{ to_chat_ids: [1001], from_chat_id: -1000000003001, message_ids: [1048576] },
		{
			to_chat_ids: [1001],
			from_chat_id: -1000000003001,
			message_ids: [2097152],
			send_copy: true,
			new_caption: '<b>Copied</b>',
			parse_mode: 'HTML',
		},
	],
	errors: [E.PARSE_MODE_TEXT],
	flood: 'send',
	methods: ['forwardMessages', 'getMessage', 'sendMessage', 'parseTextEntities', 'createPrivateChat'],
	input: ForwardInput,
	updates: SENT_UPDATES,
	async run(input, ctx) {
		const ids = [...new Set(input.message_ids)].sort((a, b) => a - b)
		// The new caption is parsed once, before anything is forwarded (a refused markup sends nothing).
		const replacement =
			input.new_caption === undefined
				? undefined
				: await parsedText(ctx, input.new_caption, undefined, input.parse_mode, 'new_caption')
		const f: Forwarding = { input, ids, invoke: ctx.invoke, signal: ctx.signal, replacement }
		// Listening before the first forward goes out: no outcome is missed.
		const tracker = input.wait_sent ? trackSent(ctx) : undefined
		const outcomes: Outcome[] = []
		try {
			for (const to_chat_id of input.to_chat_ids) {
				// Past the deadline (or with the socket gone) nothing more is sent; the rest is reported unsent.
				outcomes.push(
					f.signal.aborted ? { messages: [], error: f.signal.reason } : await forwardTo(f, to_chat_id),
				)
			}
			if (tracker)
				outcomes.splice(0, outcomes.length, ...(await Promise.all(outcomes.map((o) => settled(tracker, o)))))
		} finally {
			tracker?.stop()
		}
		return report(input.to_chat_ids, outcomes)
	},
})

/** Every target's outcome: the results, or the first failure (with the results when some went through). */
function report(toChatIds: number[], outcomes: Outcome[]): ForwardResult[] {
	const results: ForwardResult[] = []
	let firstError: unknown
	let anyForwarded = false
	for (const [i, outcome] of outcomes.entries()) {
		const to_chat_id = toChatIds[i] as number
		const result: ForwardResult = { to_chat_id }
		if (outcome.error === undefined || outcome.messages.length > 0) result.messages = outcome.messages
		if (outcome.messages.length > 0 || outcome.error === undefined) anyForwarded = true
		if (outcome.error !== undefined) {
			firstError ??= outcome.error
			result.error = wordError(outcome.error)
		}
		results.push(result)
	}
	if (firstError === undefined) return results
	if (anyForwarded) throw new CommandError(wordError(firstError), results)
	// Nothing went through: the failure alone, which the gateway words (and logs, if unexpected).
	throw firstError
}
