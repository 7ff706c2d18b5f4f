import type * as Td from 'tdlib-types'
import { lastReadInbox, unreadCount } from './chats/read-state'
import { publicUsername } from './chats/usernames'
import { contentFor, fileObject, fileRecord } from './files'
import { memberStatus } from './members/objects'
import { defaultPermissions } from './members/rights'
import { type ChatRecord, MESSAGE_ID_SHIFT, type MessageRecord, type UserRecord, type World } from './world'

/** Builds TDLib-shaped objects from world records, as one viewer sees them. */

export const formattedText = (text: string): Td.formattedText => ({ _: 'formattedText', text, entities: [] })

export function userObject(u: UserRecord, viewerId: number): Td.user {
	return {
		_: 'user',
		id: u.id,
		first_name: u.firstName,
		last_name: u.lastName,
		usernames: u.username
			? {
					_: 'usernames',
					active_usernames: [u.username],
					disabled_usernames: [],
					editable_username: u.username,
					collectible_usernames: [],
				}
			: undefined,
		phone_number: u.id === viewerId ? (u.phone ?? '') : '',
		status: { _: 'userStatusEmpty' },
		accent_color_id: u.id % 7,
		background_custom_emoji_id: '0',
		profile_accent_color_id: -1,
		profile_background_custom_emoji_id: '0',
		is_contact: false,
		is_mutual_contact: false,
		is_close_friend: false,
		is_premium: false,
		is_support: u.id === 777000,
		restricts_new_chats: false,
		paid_message_star_count: 0,
		have_access: true,
		type: { _: 'userTypeRegular' },
		language_code: '',
		added_to_attachment_menu: false,
	}
}

const NOTIFICATIONS: Td.chatNotificationSettings = {
	_: 'chatNotificationSettings',
	use_default_mute_for: true,
	mute_for: 0,
	use_default_sound: true,
	sound_id: '0',
	use_default_show_preview: true,
	show_preview: false,
	use_default_mute_stories: true,
	mute_stories: false,
	use_default_story_sound: true,
	story_sound_id: '0',
	use_default_show_story_poster: true,
	show_story_poster: false,
	use_default_disable_pinned_message_notifications: true,
	disable_pinned_message_notifications: false,
	use_default_disable_mention_notifications: true,
	disable_mention_notifications: false,
}

function chatType(world: World, chat: ChatRecord, viewerId: number): Td.ChatType {
	switch (chat.kind) {
		case 'private':
			return { _: 'chatTypePrivate', user_id: world.chatIdFor(viewerId, chat) }
		case 'basicGroup':
			return { _: 'chatTypeBasicGroup', basic_group_id: chat.groupId }
		default:
			return { _: 'chatTypeSupergroup', supergroup_id: chat.groupId, is_channel: chat.kind === 'channel' }
	}
}

export function chatTitle(world: World, chat: ChatRecord, viewerId: number): string {
	if (chat.kind !== 'private') return chat.title
	const other = world.users.get(world.chatIdFor(viewerId, chat))
	return other ? `${other.firstName} ${other.lastName}`.trim() : ''
}

export function lastMessage(chat: ChatRecord): MessageRecord | undefined {
	let last: MessageRecord | undefined
	for (const m of chat.messages.values()) if (!last || m.serverId > last.serverId) last = m
	return last
}

/** A group's photo: one file for both sizes (the emulator keeps one). */
function chatPhoto(world: World, chat: ChatRecord): Td.chatPhotoInfo | undefined {
	const record = chat.photoFileId ? fileRecord(world, chat.photoFileId) : undefined
	if (!record) return undefined
	const file = fileObject(record)
	return { _: 'chatPhotoInfo', small: file, big: file, has_animation: false, is_personal: false }
}

export function chatObject(world: World, chat: ChatRecord, viewerId: number): Td.chat {
	const id = world.chatIdFor(viewerId, chat)
	const last = lastMessage(chat)
	return {
		_: 'chat',
		id,
		type: chatType(world, chat, viewerId),
		title: chatTitle(world, chat, viewerId),
		photo: chatPhoto(world, chat),
		accent_color_id: Math.abs(id) % 7,
		background_custom_emoji_id: '0',
		profile_accent_color_id: -1,
		profile_background_custom_emoji_id: '0',
		permissions: chat.permissions ?? defaultPermissions(chat.kind !== 'channel'),
		last_message: last ? messageObject(world, chat, last, viewerId) : undefined,
		positions: [
			{ _: 'chatPosition', list: { _: 'chatListMain' }, order: String(last?.date ?? 0), is_pinned: false },
		],
		chat_lists: [{ _: 'chatListMain' }],
		has_protected_content: false,
		is_translatable: false,
		is_marked_as_unread: false,
		view_as_topics: false,
		has_scheduled_messages: false,
		can_be_deleted_only_for_self: chat.kind !== 'channel',
		can_be_deleted_for_all_users: chat.kind === 'private',
		can_be_reported: chat.kind !== 'private',
		default_disable_notification: false,
		unread_count: unreadCount(world, viewerId, chat),
		last_read_inbox_message_id: lastReadInbox(world, viewerId, chat) * MESSAGE_ID_SHIFT,
		last_read_outbox_message_id: last ? last.serverId * MESSAGE_ID_SHIFT : 0,
		unread_mention_count: 0,
		unread_reaction_count: 0,
		unread_poll_vote_count: 0,
		notification_settings: NOTIFICATIONS,
		available_reactions: { _: 'chatAvailableReactionsAll', max_reaction_count: 11 },
		message_auto_delete_time: chat.autoDeleteTime,
		video_chat: { _: 'videoChat', group_call_id: 0, has_participants: false },
		reply_markup_message_id: 0,
		client_data: '',
	}
}

/** `getSupergroup`'s answer for a supergroup or channel record. */
export function supergroupObject(world: World, chat: ChatRecord, viewerId: number): Td.supergroup {
	const first = chat.messages.get(1)
	const username = publicUsername(world, chat)
	return {
		_: 'supergroup',
		id: chat.groupId,
		usernames: username
			? {
					_: 'usernames',
					active_usernames: [username],
					disabled_usernames: [],
					editable_username: username,
					collectible_usernames: [],
				}
			: undefined,
		date: first?.date ?? 0,
		status: memberStatus(world, chat, viewerId, viewerId),
		member_count: chat.members.size,
		boost_level: 0,
		has_automatic_translation: false,
		has_linked_chat: false,
		has_location: false,
		sign_messages: false,
		show_message_sender: false,
		join_to_send_messages: false,
		join_by_request: false,
		is_slow_mode_enabled: (chat.slowModeDelay ?? 0) > 0,
		is_channel: chat.kind === 'channel',
		is_broadcast_group: false,
		is_forum: chat.isForum === true,
		is_direct_messages_group: false,
		is_administered_direct_messages_group: false,
		has_direct_messages_group: false,
		has_forum_tabs: false,
		paid_message_star_count: 0,
	}
}

function reactionsObject(m: MessageRecord, viewerId: number): Td.messageInteractionInfo | undefined {
	if (m.reactions.size === 0) return undefined
	const reactions: Td.messageReaction[] = []
	for (const [emoji, users] of m.reactions) {
		if (users.size === 0) continue
		reactions.push({
			_: 'messageReaction',
			type: { _: 'reactionTypeEmoji', emoji },
			total_count: users.size,
			is_chosen: users.has(viewerId),
			recent_sender_ids: [...users].slice(0, 3).map((user_id) => ({ _: 'messageSenderUser', user_id })),
		})
	}
	return {
		_: 'messageInteractionInfo',
		view_count: 0,
		forward_count: 0,
		reactions: {
			_: 'messageReactions',
			reactions,
			are_tags: false,
			paid_reactors: [],
			can_get_added_reactions: false,
		},
	}
}

export function messageObject(
	world: World,
	chat: ChatRecord,
	m: MessageRecord,
	viewerId: number,
	id = m.serverId * MESSAGE_ID_SHIFT,
): Td.message {
	const chatId = world.chatIdFor(viewerId, chat)
	const isChannel = chat.kind === 'channel'
	return {
		_: 'message',
		id,
		sender_id: isChannel
			? { _: 'messageSenderChat', chat_id: chatId }
			: { _: 'messageSenderUser', user_id: m.senderId },
		chat_id: chatId,
		is_outgoing: m.senderId === viewerId,
		is_pinned: m.pinned,
		is_from_offline: false,
		can_be_saved: m.protectedContent !== true,
		has_timestamped_media: false,
		is_channel_post: isChannel,
		is_paid_star_suggested_post: false,
		is_paid_ton_suggested_post: false,
		contains_unread_mention: false,
		contains_unread_poll_votes: false,
		date: m.date,
		edit_date: m.editDate,
		forward_info:
			m.forwardedFrom !== undefined
				? {
						_: 'messageForwardInfo',
						origin: { _: 'messageOriginUser', sender_user_id: m.forwardedFrom },
						date: m.date,
						public_service_announcement_type: '',
					}
				: undefined,
		reply_to:
			m.replyTo !== undefined
				? {
						_: 'messageReplyToMessage',
						chat_id: chatId,
						message_id: m.replyTo * MESSAGE_ID_SHIFT,
						checklist_task_id: 0,
						poll_option_id: '',
						origin_send_date: 0,
					}
				: undefined,
		interaction_info: reactionsObject(m, viewerId),
		unread_reactions: [],
		self_destruct_in: 0,
		auto_delete_in: chat.autoDeleteTime,
		via_bot_user_id: 0,
		sender_business_bot_user_id: 0,
		sender_boost_count: 0,
		sender_tag: '',
		paid_message_star_count: 0,
		author_signature: '',
		topic_id: m.topic,
		media_album_id: m.albumId ?? '0',
		effect_id: '0',
		summary_language_code: '',
		content: contentFor(world, m.content, viewerId),
	}
}
