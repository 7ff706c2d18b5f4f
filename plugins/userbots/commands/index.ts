import { commandFace, defineCommandGroup } from 'userbot-gateway/plugin'
import * as op from '../operations'
import type { Userbots } from '../route-context'

/**
 * The lifecycle's operations as WebSocket commands (their command faces): the log-in steps, the state,
 * and the card's actions, on the same handlers, policy entries and input rules as their REST routes.
 */
export const userbotCommands = (u: Userbots) =>
	defineCommandGroup({
		id: op.LIFECYCLE,
		commands: [
			commandFace(op.submitPhone, u),
			commandFace(op.submitCode, u),
			commandFace(op.submitPassword, u),
			commandFace(op.registerAccount, u),
			commandFace(op.requestQr, u),
			commandFace(op.getState, u),
			commandFace(op.rename, u),
			commandFace(op.logOut, u),
			commandFace(op.restart, u),
		],
	})
