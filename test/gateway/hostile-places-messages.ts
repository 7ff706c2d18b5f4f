import { SEED_CHATS } from '../../src/emulator'
import type { Place } from './hostile-places'

/** The messages group's places for client objects (issue 7, item 1). */

const BOLD = { '@type': 'textEntityTypeBold' }
const REMOTE = { '@type': 'inputFileRemote', id: 'https://example.com/a.pdf' }
const entity = (type: unknown) => ({ '@type': 'textEntity', offset: 0, length: 1, type })
const formatted = (type: unknown) => ({ '@type': 'formattedText', text: 'x', entities: [entity(type)] })
const ENTITY_TYPES = ['textEntityTypeBold', 'textEntityTypeItalic'] as const
const basic = { chat_id: SEED_CHATS.basicGroup }

export const MESSAGES: Record<string, Place> = {
	'send_message reply_to': {
		build: (h) => ({ action: 'send_message', ...basic, text: 'x', reply_to: h }),
		fine: { '@type': 'inputMessageReplyToMessage', message_id: 1048576 },
		own: ['inputMessageReplyToMessage', 'inputMessageReplyToStory'],
	},
	'send_message reply_to, nested in a quote': {
		build: (h) => ({
			action: 'send_message',
			...basic,
			text: 'x',
			reply_to: {
				'@type': 'inputMessageReplyToMessage',
				message_id: 1048576,
				quote: { '@type': 'inputTextQuote', text: formatted(h) },
			},
		}),
		fine: BOLD,
		own: ENTITY_TYPES,
	},
	'send_message options': {
		build: (h) => ({ action: 'send_message', ...basic, text: 'x', options: h }),
		fine: { '@type': 'messageSendOptions', disable_notification: true },
		own: ['messageSendOptions'],
	},
	'send_message options, nested': {
		build: (h) => ({
			action: 'send_message',
			...basic,
			text: 'x',
			options: { '@type': 'messageSendOptions', scheduling_state: h },
		}),
		fine: { '@type': 'messageSchedulingStateSendWhenOnline' },
		own: ['messageSchedulingStateSendAtDate', 'messageSchedulingStateSendWhenOnline'],
	},
	'send_message reply_markup': {
		build: (h) => ({ action: 'send_message', ...basic, text: 'x', reply_markup: h }),
		fine: { '@type': 'replyMarkupRemoveKeyboard' },
		own: ['replyMarkupRemoveKeyboard', 'replyMarkupForceReply'],
	},
	'send_message reply_markup, nested in a button': {
		build: (h) => ({
			action: 'send_message',
			...basic,
			text: 'x',
			reply_markup: {
				'@type': 'replyMarkupInlineKeyboard',
				rows: [[{ '@type': 'inlineKeyboardButton', text: 'x', type: h }]],
			},
		}),
		fine: { '@type': 'inlineKeyboardButtonTypeUrl', url: 'https://example.com' },
		own: ['inlineKeyboardButtonTypeUrl', 'inlineKeyboardButtonTypeCallback'],
	},
	'send_message entities': {
		build: (h) => ({ action: 'send_message', ...basic, text: 'x', entities: [h] }),
		fine: entity(BOLD),
		own: ['textEntity'],
	},
	'send_message entities, nested': {
		build: (h) => ({ action: 'send_message', ...basic, text: 'x', entities: [entity(h)] }),
		fine: BOLD,
		own: ENTITY_TYPES,
	},
	'send_message topic_id': {
		build: (h) => ({ action: 'send_message', ...basic, text: 'x', topic_id: h }),
		fine: { '@type': 'messageTopicThread', message_thread_id: 1048576 },
		own: ['messageTopicThread', 'messageTopicForum'],
	},
	'send_message text object': {
		build: (h) => ({ action: 'send_message', ...basic, text: formatted(h) }),
		fine: BOLD,
		own: ENTITY_TYPES,
	},
	'send_message media': {
		build: (h) => ({ action: 'send_message', ...basic, media: h }),
		fine: { file: REMOTE.id },
		own: ['inputMessageDocument', 'inputMessagePhoto'],
	},
	'send_message media file': {
		build: (h) => ({ action: 'send_message', ...basic, media: { file: h } }),
		fine: REMOTE.id,
		own: ['inputFileRemote', 'inputFileId'],
	},
	'send_message media content, nested file': {
		build: (h) => ({
			action: 'send_message',
			...basic,
			media: { '@type': 'inputMessageDocument', document: { '@type': 'inputDocument', document: h } },
		}),
		fine: REMOTE,
		own: ['inputFileRemote', 'inputFileId'],
	},
	'send_message media content, thumbnail': {
		build: (h) => ({
			action: 'send_message',
			...basic,
			media: {
				'@type': 'inputMessageDocument',
				document: {
					'@type': 'inputDocument',
					document: REMOTE,
					thumbnail: { '@type': 'inputThumbnail', thumbnail: h, width: 1, height: 1 },
				},
			},
		}),
		fine: REMOTE,
		own: ['inputFileRemote', 'inputFileId'],
	},
	'send_message album item': {
		build: (h) => ({ action: 'send_message', ...basic, media: [{ file: REMOTE.id }, h] }),
		fine: { file: REMOTE.id },
	},
	'reply_message text': {
		build: (h) => ({ action: 'reply_message', ...basic, reply_to_message_id: 1048576, text: formatted(h) }),
		fine: BOLD,
		own: ENTITY_TYPES,
	},
	'reply_message entities': {
		build: (h) => ({
			action: 'reply_message',
			...basic,
			reply_to_message_id: 1048576,
			text: 'x',
			entities: [h],
		}),
		fine: entity(BOLD),
		own: ['textEntity'],
	},
	'edit_message text': {
		build: (h) => ({ action: 'edit_message', ...basic, message_id: 1048576, text: formatted(h) }),
		fine: BOLD,
		own: ENTITY_TYPES,
	},
	'edit_message entities, nested': {
		build: (h) => ({
			action: 'edit_message',
			...basic,
			message_id: 1048576,
			text: 'x',
			entities: [entity(h)],
		}),
		fine: BOLD,
		own: ENTITY_TYPES,
	},
	'forward_message new_caption': {
		build: (h) => ({
			action: 'forward_message',
			to_chat_ids: [SEED_CHATS.supergroup],
			from_chat_id: SEED_CHATS.basicGroup,
			message_ids: [1048576],
			new_caption: formatted(h),
		}),
		fine: BOLD,
		own: ENTITY_TYPES,
	},
	'set_reaction reaction': {
		build: (h) => ({ action: 'set_reaction', ...basic, message_id: 1048576, reaction: h }),
		fine: { '@type': 'reactionTypeEmoji', emoji: '👍' },
		own: ['reactionTypeEmoji', 'reactionTypeCustomEmoji'],
	},
	'set_reaction reaction list': {
		build: (h) => ({ action: 'set_reaction', ...basic, message_id: 1048576, reaction: [h] }),
		fine: { '@type': 'reactionTypeEmoji', emoji: '👍' },
		own: ['reactionTypeEmoji', 'reactionTypeCustomEmoji'],
	},
}
