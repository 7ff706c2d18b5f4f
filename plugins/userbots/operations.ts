import { defineOperation, ROUTE_ERRORS, RestSchemas as S } from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { bodies } from './bodies'
import type { Userbots } from './route-context'

/**
 * The userbot lifecycle's operations that have two faces (docs/plugins.md#operations): each is one
 * definition, served as a REST route under `/api/userbots/{id}/` and as a WebSocket command
 * (`userbot_*`), with one policy entry, one input rule set worded for each face (./bodies.ts), one
 * handler on the userbot service. The routes of the lifecycle that have one face only (create, list,
 * delete, files, the proxy) stay REST routes (./routes.ts).
 */

const BASE = '/api/userbots'
/** The group an API key's `groups` must name (docs/operator.md#api-keys): the lifecycle's. */
export const LIFECYCLE = 'userbots'
const { authed, notFound: missing, badRequest: invalid, unavailable, throttled } = ROUTE_ERRORS

const STATE = {
	description: 'The new log-in state (`authorizationStateWaitCode`, `...WaitPassword`, `...Ready`...).',
	schema: S.AuthorizationState,
}
const STEP_REFUSALS = { 400: v.union([S.FieldErrors, S.Detail]), ...authed, ...missing }
/** A step that checks a secret also answers 429 once the userbot's guess limit is reached. */
const GUESS_REFUSALS = { ...STEP_REFUSALS, ...throttled }
const ws = bodies('ws')
const rest = bodies('rest')
const of =
	<K extends keyof typeof ws>(key: K) =>
	(face: 'rest' | 'ws') =>
		(face === 'ws' ? ws : rest)[key]

/** They work in any log-in state (a command's default is to refuse a userbot not logged in). */
const ANY_STATE = { requiresAuthorization: false } as const
/** Using a userbot (its log-in steps): any member of the company. */
const USES = { action: 'write' } as const
/** What only the owner may, or a member granted `userbots.manage`. */
const MANAGES = { action: 'manage', permission: 'userbots.manage' } as const

export const submitPhone = defineOperation({
	id: 'submitUserbotPhone',
	summary: 'Log-in step: the phone number of the Telegram account',
	policy: USES,
	group: LIFECYCLE,
	input: of('phone'),
	errors: ['phone_number is required', 'phone_number must not contain control characters'],
	examples: [{ phone_number: '+9996621234' }],
	result: STATE,
	rest: { method: 'post', path: `${BASE}/:id/phone/`, refusals: STEP_REFUSALS },
	command: { name: 'userbot_submit_phone', ...ANY_STATE },
	run: (u: Userbots, { input, principal, userbotId }) =>
		u.service.submitPhone(principal, userbotId, input.phone_number),
})

export const submitCode = defineOperation({
	id: 'submitUserbotCode',
	summary: 'Log-in step: the code Telegram sent',
	policy: USES,
	group: LIFECYCLE,
	input: of('code'),
	checksSecret: true,
	errors: ['code is required', 'code must not contain control characters'],
	examples: [{ code: '22222' }],
	result: STATE,
	rest: { method: 'post', path: `${BASE}/:id/code/`, refusals: GUESS_REFUSALS },
	command: { name: 'userbot_submit_code', ...ANY_STATE },
	run: (u: Userbots, { input, principal, userbotId }) =>
		u.service.submitCode(principal, userbotId, input.code),
})

export const submitPassword = defineOperation({
	id: 'submitUserbotPassword',
	summary: "Log-in step: the account's 2FA password",
	policy: USES,
	group: LIFECYCLE,
	input: of('password'),
	checksSecret: true,
	errors: ['password is required'],
	examples: [{ password: 'secret-2fa' }],
	result: STATE,
	rest: { method: 'post', path: `${BASE}/:id/password/`, refusals: GUESS_REFUSALS },
	command: { name: 'userbot_submit_password', ...ANY_STATE },
	run: (u: Userbots, { input, principal, userbotId }) =>
		u.service.submitPassword(principal, userbotId, input.password),
})

export const registerAccount = defineOperation({
	id: 'registerUserbotAccount',
	summary: 'Log-in step: names a new Telegram account',
	policy: USES,
	group: LIFECYCLE,
	input: of('registration'),
	errors: ['first_name is required'],
	examples: [{ first_name: 'Ann', last_name: 'Lee' }],
	result: STATE,
	rest: { method: 'post', path: `${BASE}/:id/register/`, refusals: STEP_REFUSALS },
	command: { name: 'userbot_register', ...ANY_STATE },
	run: (u: Userbots, { input, principal, userbotId }) =>
		u.service.submitRegistration(principal, userbotId, input.first_name, input.last_name),
})

export const requestQr = defineOperation({
	id: 'requestUserbotQrLink',
	summary: 'Log-in by QR code: a `tg://login?token=...` link to show as one',
	policy: USES,
	group: LIFECYCLE,
	examples: [{}],
	result: { description: '`{link}`.', schema: S.QrLink },
	rest: { method: 'post', path: `${BASE}/:id/qr/`, refusals: { 400: S.Detail, ...authed, ...missing } },
	command: { name: 'userbot_request_qr', ...ANY_STATE },
	run: (u: Userbots, { principal, userbotId }) => u.service.requestQr(principal, userbotId),
})

/** The state alone has a command face only: REST reads it in the userbot's view (`GET /api/userbots/{id}/`). */
export const getState = defineOperation({
	id: 'getUserbotState',
	summary: "The userbot's last log-in state",
	policy: { action: 'read' },
	group: LIFECYCLE,
	examples: [{}],
	result: {
		description: '`{authorization_state}`, the last state TDLib reported.',
		schema: S.AuthorizationState,
	},
	rest: undefined,
	command: { name: 'userbot_get_state', ...ANY_STATE },
	run: (u: Userbots, { principal, userbotId }) => u.service.getState(principal, userbotId),
})

// The card's actions (docs/rest.md#userbot-actions): rename, log out, restart; `userbots.manage`.
export const rename = defineOperation({
	id: 'renameUserbot',
	summary: 'Renames a userbot',
	policy: MANAGES,
	group: LIFECYCLE,
	input: of('rename'),
	errors: ['name is required'],
	examples: [{ name: 'Support desk' }],
	result: { description: "The userbot's view with its new name.", schema: S.Userbot },
	rest: { method: 'patch', path: `${BASE}/:id/`, refusals: { ...invalid, ...authed, ...missing } },
	command: { name: 'userbot_rename', ...ANY_STATE },
	run: (u: Userbots, { input, principal, userbotId, client }) =>
		u.service.rename(principal, userbotId, input.name, client),
})

export const logOut = defineOperation({
	id: 'logOutUserbot',
	summary: 'Logs a logged-in userbot out of Telegram; it stays, its new client waiting for a phone number',
	policy: { ...MANAGES, destructive: true },
	group: LIFECYCLE,
	examples: [{}],
	result: STATE,
	rest: {
		method: 'post',
		path: `${BASE}/:id/logout/`,
		refusals: { 400: S.Detail, ...authed, ...missing, ...unavailable },
	},
	command: { name: 'userbot_log_out', ...ANY_STATE },
	run: (u: Userbots, { principal, userbotId, client }) => u.service.logOut(principal, userbotId, client),
})

export const restart = defineOperation({
	id: 'restartUserbot',
	summary: "Stops the userbot's TDLib client and starts it again from its database",
	policy: MANAGES,
	group: LIFECYCLE,
	examples: [{}],
	result: STATE,
	// 400: the client could not start again (its proxy refused: docs/operator.md#userbot-proxies).
	rest: {
		method: 'post',
		path: `${BASE}/:id/restart/`,
		refusals: { 400: S.Detail, ...authed, ...missing, ...unavailable },
	},
	command: { name: 'userbot_restart', ...ANY_STATE },
	run: (u: Userbots, { principal, userbotId, client }) => u.service.restart(principal, userbotId, client),
})
