/**
 * The security and two-factor authentication command group: the 2FA password (state, verify, change, disable,
 * recovery e-mail, recovery codes), the account's TTL and the ownership-transfer check, as the 11 commands of
 * docs/commands.md#commands-security mapped onto TDLib 1.8.65
 * (docs/tdlib-mapping.md#security-and-two-step-verification), and two more that finish a pending recovery
 * address (its code checked or sent again), which the protocol leaves out
 * (docs/tdlib-mapping.md#security-and-two-step-verification). It adds no route: it registers its commands
 * with the WebSocket gateway, which checks the envelope, the caller's company and the deadline, and sends
 * every reply. Each command is one file; the wire error strings are data in `errors.ts`.
 */
import { defineCommandGroup, definePlugin } from 'userbot-gateway/plugin'
import { change2faPassword } from './change-2fa-password'
import { change2faRecoveryEmail } from './change-2fa-recovery-email'
import { checkPasswordRecoveryCode } from './check-password-recovery-code'
import { checkRecoveryEmailAddressCode } from './check-recovery-email-address-code'
import { disable2faPassword } from './disable-2fa-password'
import { getAccountTtl } from './get-account-ttl'
import { getPasswordState } from './get-password-state'
import { getTransferOwnershipState } from './get-transfer-ownership-state'
import { recoverPassword } from './recover-password'
import { requestPasswordRecovery } from './request-password-recovery'
import { resendRecoveryEmailAddressCode } from './resend-recovery-email-address-code'
import { setAccountTtl } from './set-account-ttl'
import { verify2faPassword } from './verify-2fa-password'

export const securityCommands = defineCommandGroup({
	id: 'commands-security',
	commands: [
		getPasswordState,
		getAccountTtl,
		requestPasswordRecovery,
		getTransferOwnershipState,
		setAccountTtl,
		checkPasswordRecoveryCode,
		recoverPassword,
		verify2faPassword,
		change2faPassword,
		disable2faPassword,
		change2faRecoveryEmail,
		checkRecoveryEmailAddressCode,
		resendRecoveryEmailAddressCode,
	],
})

export const securityPlugin = definePlugin({
	id: 'commands-security',
	commands: securityCommands.commands,
})
