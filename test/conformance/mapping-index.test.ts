import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { getTestInstance, type TestInstance } from '../helpers'

/**
 * The quick index of docs/tdlib-mapping.md#quick-index, as data: the TDLib methods each of the 54 commands
 * sends. Every command must declare them (`methods`), so that the conformance report, which checks
 * that a test made each declared method go out, covers all of the mapping. Methods the mapping marks
 * optional (`(canTransferOwnership →)`) are left out.
 */
const QUICK_INDEX: Record<string, readonly string[]> = {
	send_message: ['sendMessage', 'sendMessageAlbum'],
	delete_messages: ['deleteMessages'],
	forward_message: ['forwardMessages', 'sendMessage'],
	reply_message: ['sendMessage'],
	edit_message: ['editMessageText'],
	pin_message: ['pinChatMessage'],
	unpin_message: ['unpinChatMessage'],
	set_reaction: ['addMessageReaction'],
	get_default_message_auto_delete_time: ['getDefaultMessageAutoDeleteTime'],
	set_default_message_auto_delete_time: ['setDefaultMessageAutoDeleteTime'],
	set_chat_message_auto_delete_time: ['setChatMessageAutoDeleteTime'],
	get_active_sessions: ['getActiveSessions'],
	terminate_all_other_sessions: ['terminateAllOtherSessions'],
	terminate_session: ['getActiveSessions', 'terminateSession'],
	set_session_settings: ['toggleSessionCanAcceptCalls', 'toggleSessionCanAcceptSecretChats'],
	block_user: ['setMessageSenderBlockList'],
	unblock_user: ['setMessageSenderBlockList'],
	get_blocked_users: ['getBlockedMessageSenders'],
	get_privacy_setting: ['getUserPrivacySettingRules', 'getNewChatPrivacySettings'],
	get_privacy_settings: ['getUserPrivacySettingRules', 'getNewChatPrivacySettings'],
	set_privacy_setting: [
		'setUserPrivacySettingRules',
		'getNewChatPrivacySettings',
		'setNewChatPrivacySettings',
	],
	get_password_state: ['getPasswordState'],
	get_account_ttl: ['getAccountTtl'],
	request_password_recovery: ['requestPasswordRecovery'],
	get_transfer_ownership_state: ['canTransferOwnership'],
	set_account_ttl: ['setAccountTtl'],
	check_password_recovery_code: ['checkPasswordRecoveryCode'],
	recover_password: ['recoverPassword'],
	verify_2fa_password: ['getPasswordState', 'getRecoveryEmailAddress'],
	change_2fa_password: ['setPassword'],
	disable_2fa_password: ['setPassword'],
	change_2fa_recovery_email: ['setRecoveryEmailAddress'],
	get_chat_members: ['getChat', 'getSupergroupMembers', 'getBasicGroupFullInfo', 'getChatMember'],
	get_chat_recent_actions: ['getChat', 'getChatEventLog'],
	add_chat_member: ['addChatMember'],
	add_chat_members: ['getChat', 'addChatMembers', 'addChatMember'],
	remove_chat_member: ['getChat', 'banChatMember', 'setChatMemberStatus', 'deleteChatMessagesBySender'],
	restore_chat_member: ['setChatMemberStatus'],
	add_chat_administrator: ['getChat', 'setChatMemberStatus', 'setChatMemberTag'],
	remove_chat_administrator: ['getChat', 'getChatMember', 'setChatMemberStatus'],
	transfer_chat_ownership: ['transferChatOwnership'],
	get_chat_invite_links: ['getChatInviteLinks'],
	create_chat_invite_link: ['createChatInviteLink'],
	create_chat_subscription_invite_link: ['createChatSubscriptionInviteLink'],
	edit_chat_subscription_invite_link: ['editChatSubscriptionInviteLink'],
	edit_chat_invite_link: ['editChatInviteLink'],
	revoke_chat_invite_link: ['revokeChatInviteLink'],
	delete_revoked_chat_invite_link: ['deleteRevokedChatInviteLink'],
	replace_primary_chat_invite_link: ['replacePrimaryChatInviteLink'],
	delete_all_revoked_chat_invite_links: ['deleteAllRevokedChatInviteLinks'],
	get_chat_join_requests: ['getChatJoinRequests'],
	get_chat_invite_link_members: ['getChatInviteLinkMembers'],
	process_chat_join_request: ['processChatJoinRequest'],
	process_chat_join_requests: ['processChatJoinRequests'],
}

describe("tdlib-mapping.md's quick index", () => {
	let t: TestInstance
	beforeAll(async () => {
		t = await getTestInstance({}, { listen: false })
	})
	afterAll(() => t.stop())

	it('names 54 commands, and the app serves each of them', () => {
		expect(Object.keys(QUICK_INDEX)).toHaveLength(54)
		for (const name of Object.keys(QUICK_INDEX)) expect(t.commands.has(name)).toBe(true)
	})

	it("is declared by every command: each method the mapping names is in the command's methods", () => {
		const missing: string[] = []
		for (const [name, methods] of Object.entries(QUICK_INDEX)) {
			const declared = t.commands.get(name)?.command.methods ?? []
			for (const m of methods) if (!declared.includes(m as never)) missing.push(`${name}: ${m}`)
		}
		expect(missing).toEqual([])
	})
})
