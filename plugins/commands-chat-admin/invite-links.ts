import { createChatInviteLink } from './create-chat-invite-link'
import { createChatSubscriptionInviteLink } from './create-chat-subscription-invite-link'
import { deleteAllRevokedChatInviteLinks } from './delete-all-revoked-chat-invite-links'
import { deleteRevokedChatInviteLink } from './delete-revoked-chat-invite-link'
import { editChatInviteLink } from './edit-chat-invite-link'
import { editChatSubscriptionInviteLink } from './edit-chat-subscription-invite-link'
import { getChatInviteLinkMembers } from './get-chat-invite-link-members'
import { getChatInviteLinks } from './get-chat-invite-links'
import { getChatJoinRequests } from './get-chat-join-requests'
import { processChatJoinRequest } from './process-chat-join-request'
import { processChatJoinRequests } from './process-chat-join-requests'
import { replacePrimaryChatInviteLink } from './replace-primary-chat-invite-link'
import { revokeChatInviteLink } from './revoke-chat-invite-link'

/** The 13 invite-link and join-request commands. */
export const inviteLinkCommands = [
	getChatInviteLinks,
	createChatInviteLink,
	createChatSubscriptionInviteLink,
	editChatSubscriptionInviteLink,
	editChatInviteLink,
	revokeChatInviteLink,
	deleteRevokedChatInviteLink,
	replacePrimaryChatInviteLink,
	deleteAllRevokedChatInviteLinks,
	getChatJoinRequests,
	getChatInviteLinkMembers,
	processChatJoinRequest,
	processChatJoinRequests,
] as const
