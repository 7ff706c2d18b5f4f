import type { ChatAction$Input } from 'tdlib-types'
import { defineCommand, documented, fields, requiredInt, requiredString } from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { ChatsErrors as E } from './errors'

/** The actions by the Bot API's names (`sendChatAction`), each TDLib's `chatAction*`; `cancel` ends one. */
export const CHAT_ACTIONS: Readonly<Record<string, ChatAction$Input>> = {
	typing: { _: 'chatActionTyping' },
	upload_photo: { _: 'chatActionUploadingPhoto', progress: 0 },
	record_video: { _: 'chatActionRecordingVideo' },
	upload_video: { _: 'chatActionUploadingVideo', progress: 0 },
	record_voice: { _: 'chatActionRecordingVoiceNote' },
	upload_voice: { _: 'chatActionUploadingVoiceNote', progress: 0 },
	upload_document: { _: 'chatActionUploadingDocument', progress: 0 },
	choose_sticker: { _: 'chatActionChoosingSticker' },
	find_location: { _: 'chatActionChoosingLocation' },
	record_video_note: { _: 'chatActionRecordingVideoNote' },
	upload_video_note: { _: 'chatActionUploadingVideoNote', progress: 0 },
	cancel: { _: 'chatActionCancel' },
}

/**
 * `send_chat_action {chat_id, chat_action}` → `sendChatAction`: shows the chat's other members that the
 * account is typing, recording or uploading (Telegram shows it for about 5 seconds, or until the
 * next message); `cancel` stops it.
 */
export const sendChatAction = defineCommand({
	name: 'send_chat_action',
	policy: { action: 'write' },
	summary: 'Shows a chat that the account is typing, recording or uploading something.',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	examples: [{ chat_id: 1001, chat_action: 'typing' }],
	methods: ['sendChatAction', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		chat_action: documented(
			v.pipe(
				requiredString('chat_action', { missing: E.ACTION_REQUIRED }),
				v.check((s) => Object.hasOwn(CHAT_ACTIONS, s), E.ACTION_UNKNOWN),
			),
			{ enum: Object.keys(CHAT_ACTIONS) },
		),
	}),
	run: (input, ctx) =>
		ctx.invoke({ _: 'sendChatAction', chat_id: input.chat_id, action: CHAT_ACTIONS[input.chat_action] }),
})
