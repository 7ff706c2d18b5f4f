import { defineCommandGroup, type UserbotService } from 'userbot-gateway/plugin'
import { userbotGetState } from './userbot-get-state'
import { userbotRegister } from './userbot-register'
import { userbotRequestQr } from './userbot-request-qr'
import { userbotSubmitCode } from './userbot-submit-code'
import { userbotSubmitPassword } from './userbot-submit-password'
import { userbotSubmitPhone } from './userbot-submit-phone'

/** The log-in steps as WebSocket commands; they share the REST routes' implementation. */
export const userbotCommands = (service: UserbotService) =>
	defineCommandGroup({
		id: 'userbots',
		commands: [
			userbotSubmitPhone(service),
			userbotSubmitCode(service),
			userbotSubmitPassword(service),
			userbotRegister(service),
			userbotRequestQr(service),
			userbotGetState(service),
		],
	})
