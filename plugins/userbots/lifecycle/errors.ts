import { GatewayErrors, Refusal, TELEGRAM_NOT_CONFIGURED } from 'userbot-gateway/plugin'

/**
 * What the userbot lifecycle can refuse, said once for every face (src/common/util/refusal.ts): REST
 * turns a `UserbotError` into `{detail, code}` with its status, the WebSocket command into
 * `<command>_error` with `wire`.
 */
export class UserbotError extends Refusal {
	override name = 'UserbotError'
}

export const userbotErrors = {
	notFound: () => new UserbotError(404, 'Not found.', undefined, GatewayErrors.USERBOT_NOT_FOUND),
	notConfigured: () => new UserbotError(503, TELEGRAM_NOT_CONFIGURED, 'telegram_not_configured'),
	noCompany: () => new UserbotError(403, 'Permission denied', 'no_company'),
	/** An owner-only step (src/server/policy/permissions.ts) the member was not granted. */
	permissionDenied: () =>
		new UserbotError(
			403,
			'You do not have permission to perform this action.',
			'permission_denied',
			GatewayErrors.PERMISSION_DENIED,
		),
	timeout: () =>
		new UserbotError(
			504,
			'Telegram did not answer in time; check that the server can reach the network, then try again',
			'timeout',
			GatewayErrors.TIMEOUT,
		),
	unavailable: () =>
		new UserbotError(
			503,
			'The Telegram runtime is restarting; try again shortly',
			'unavailable',
			'runtime unavailable',
		),
	/** Its TDLib folder is still held by the process it ran in before (docs/shards.md#one-owner-per-account). */
	heldElsewhere: () =>
		new UserbotError(
			503,
			'The userbot still runs where it ran before, which has not let it go yet; try again shortly',
			'held_elsewhere',
			GatewayErrors.RUNTIME_HELD_ELSEWHERE,
		),
	/** No supervisor child has room for another client: `capacity reached: ...` (docs/capacity.md). */
	capacity: (message: string) => new UserbotError(503, message, 'capacity_reached'),
	limitReached: (limit: number) =>
		new UserbotError(
			403,
			`This company already has ${limit} userbots, the most COMPANY_USERBOT_LIMIT allows; delete one first.`,
			'userbot_limit',
		),
	/** TDLib refused: its own message, verbatim (docs/rest.md#rest-userbots). */
	telegram: (message: string) => new UserbotError(400, message, 'telegram_error'),
	wrongState: (waitingFor: string, state: string) =>
		new UserbotError(400, `userbot is not waiting for ${waitingFor} (state: ${state})`, 'wrong_state'),
	unsupported: (what: string, state: string) =>
		new UserbotError(
			400,
			`userbot is waiting for ${what} (${state}), which this service does not support: ` +
				'finish this step in an official Telegram app, or delete the userbot and log in again',
			'unsupported_state',
		),
}
