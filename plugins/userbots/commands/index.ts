import { commandFace, defineCommandGroup } from 'userbot-gateway/plugin'
import {
	getState,
	LIFECYCLE,
	logOut,
	registerAccount,
	rename,
	requestQr,
	restart,
	submitCode,
	submitPassword,
	submitPhone,
} from '../operations'
import type { Userbots } from '../route-context'

/**
 * The lifecycle's operations as WebSocket commands (their command faces): the log-in steps, the state,
 * and the card's actions, on the same handlers, policy entries and input rules as their REST routes.
 */
export const userbotCommands = (u: Userbots) =>
	defineCommandGroup({
		id: LIFECYCLE,
		commands: [
			commandFace(submitPhone, u),
			commandFace(submitCode, u),
			commandFace(submitPassword, u),
			commandFace(registerAccount, u),
			commandFace(requestQr, u),
			commandFace(getState, u),
			commandFace(rename, u),
			commandFace(logOut, u),
			commandFace(restart, u),
		],
	})
