import { SEED_CHATS } from '../../src/emulator'
import type { WsClient } from '../helpers-ws'

/**
 * Issue 46's proof: a mixed stream of 200 messages on the emulator, as the fixture's userbot (Bob,
 * 1002) sees them: sent by Alice's userbot (1001) to Bob and into two groups, and by Bob himself to
 * Alice, into the groups and into a channel (where he posts as the channel); text, photos,
 * documents, videos, voice notes, audio and animations; words and order numbers in the text or
 * caption. Each message carries its tag (`m17`) in its text, so what arrived can be named.
 *
 * What each filter should pass is worked out here from the plan, by the test's own reading of the
 * rules (docs/live-updates.md#filters), not by the server's matcher.
 */
export const ALICE = 1001
export const BOB = 1002
const { basicGroup, supergroup, channel } = SEED_CHATS

export interface Planned {
	tag: string
	/** Which userbot sends it. */
	from: 'alice' | 'bob'
	/** The chat in the sender's view. */
	chat: number
	/** The chat in Bob's view (a private chat is named after the other side). */
	bobChat: number
	/** The sender in Bob's view: a user, or the channel posting as itself. */
	sender: number
	outgoing: boolean
	media: 'text' | 'photo' | 'document' | 'video' | 'voice' | 'audio' | 'animation'
	text: string
}

const MEDIA: Planned['media'][] = [
	'text',
	'photo',
	'text',
	'document',
	'video',
	'text',
	'voice',
	'audio',
	'animation',
]
const WORDS = [
	'Invoice attached',
	'URGENT: call me',
	'see the report',
	'asap please',
	'lunch?',
	'invoices overdue',
]

/** The 200 messages, in the order they are sent. */
export function plan(): Planned[] {
	const out: Planned[] = []
	for (let i = 0; i < 200; i++) {
		const from = i % 3 === 0 ? 'bob' : 'alice'
		const chats = from === 'alice' ? [BOB, basicGroup, supergroup] : [ALICE, basicGroup, supergroup, channel]
		const chat = chats[i % chats.length] as number
		const media = MEDIA[i % MEDIA.length] as Planned['media']
		const words = i % 7 === 0 ? `order #${i} placed` : (WORDS[i % WORDS.length] as string)
		out.push({
			tag: `m${i}`,
			from,
			chat,
			bobChat: chat === BOB ? ALICE : chat,
			sender: from === 'bob' && chat === channel ? channel : from === 'alice' ? ALICE : BOB,
			outgoing: from === 'bob',
			media,
			text: `${words} m${i}`,
		})
	}
	return out
}

/** Sends the plan, one message after another: `alice` and `bob` are sockets of their userbots. */
export async function sendAll(
	messages: readonly Planned[],
	sockets: { alice: WsClient; bob: WsClient },
	ids: { alice: number; bob: number },
): Promise<void> {
	for (const m of messages) {
		const frame: Record<string, unknown> = {
			action: 'send_message',
			userbot_id: ids[m.from],
			chat_id: m.chat,
			text: m.text,
		}
		if (m.media !== 'text') frame.media = { file: `https://example.com/${m.tag}.bin`, media_type: m.media }
		const reply = await sockets[m.from].command(frame)
		if (reply.payload.type !== 'send_message') throw new Error(`${m.tag}: ${JSON.stringify(reply.payload)}`)
	}
}

interface Message {
	chat_id: number
	content: { _: string; text?: { text: string }; caption?: { text: string } }
}

/** The tag of an `update` frame's message (undefined for anything else). */
export function tagOf(frame: unknown): string | undefined {
	const f = frame as { type?: string; update?: { message?: Message } }
	if (f.type !== 'update') return undefined
	const content = f.update?.message?.content
	const text = content?.text?.text ?? content?.caption?.text ?? ''
	return /\bm\d+$/.exec(text)?.[0]
}
