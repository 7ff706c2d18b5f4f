/**
 * The sessions and privacy command group: the account's active sessions (list, terminate, per-session
 * settings), blocked users and privacy settings, as the 10 commands of docs/commands.md#commands-sessions
 * mapped onto TDLib 1.8.65 (docs/tdlib-mapping.md#sessions-and-privacy). It adds no route: it registers its
 * commands with the WebSocket gateway, which checks the envelope, the caller's company and the deadline, and
 * sends every reply. Each command is one file; the wire error strings are data in `errors.ts`.
 */
import { defineCommandGroup, definePlugin } from 'userbot-gateway/plugin'
import { blockUser } from './block-user'
import { getActiveSessions } from './get-active-sessions'
import { getBlockedUsers } from './get-blocked-users'
import { getPrivacySetting } from './get-privacy-setting'
import { getPrivacySettings } from './get-privacy-settings'
import { setPrivacySetting } from './set-privacy-setting'
import { setSessionSettings } from './set-session-settings'
import { terminateAllOtherSessions } from './terminate-all-other-sessions'
import { terminateSession } from './terminate-session'
import { unblockUser } from './unblock-user'

export const sessionsCommands = defineCommandGroup({
	id: 'commands-sessions',
	commands: [
		getActiveSessions,
		terminateAllOtherSessions,
		terminateSession,
		setSessionSettings,
		blockUser,
		unblockUser,
		getBlockedUsers,
		getPrivacySetting,
		getPrivacySettings,
		setPrivacySetting,
	],
})

export const sessionsPlugin = definePlugin({
	id: 'commands-sessions',
	commands: sessionsCommands.commands,
})
