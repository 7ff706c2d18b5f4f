import { Elysia } from 'elysia'
import {
	type AppContext,
	checkBody,
	emulatorRequest,
	HttpError,
	type Principal,
	readJsonObject,
	type UserbotService,
} from 'userbot-gateway/plugin'
import { bodies } from './bodies'

const rest = bodies('rest')

/**
 * What Telegram does to an account from outside, made to happen on the emulator
 * (EMULATOR_CONTROL=true and TDLIB_BACKEND=emulator only; otherwise these routes do not exist and
 * answer 404): `revoke` ends the account's session as another device of it would, `ban` deactivates
 * the account (USER_DEACTIVATED_BAN), `limit` puts it under spam restrictions (PEER_FLOOD), `freeze`
 * freezes it (updateFreezeState, FROZEN_METHOD_INVALID), `hang`
 * makes its TDLib client stop answering (it is found out and restarted: self-healing). The
 * phone number names a userbot of the caller's company, logged in as that account; a member needs
 * `userbots.manage`, as for deleting one.
 */
const ACTIONS = {
	revoke: [emulatorRequest({ _: 'emulatorRevoke' })],
	// The next request meets the ban, as it would on Telegram: TDLib then logs the client out.
	ban: [emulatorRequest({ _: 'emulatorBan' } as never), { _: 'getMe' } as const],
	limit: [emulatorRequest({ _: 'emulatorLimit' } as never)],
	// Telegram freezes the account (updateFreezeState; acting on others answers FROZEN_METHOD_INVALID).
	freeze: [emulatorRequest({ _: 'emulatorFreeze' } as never)],
	// The account's TDLib client stops answering (src/telegram/emulator/faults.ts): self-healing.
	hang: [emulatorRequest({ _: 'emulatorHang' } as never)],
} as const

export function emulatorControlRoutes(ctx: AppContext, service: UserbotService): Elysia {
	const app: Elysia = new Elysia({ name: 'emulator-control' })
	const runtime = ctx.runtime
	for (const [action, requests] of Object.entries(ACTIONS)) {
		app.post(
			`/api/emulator/${action}/`,
			async ({ request }) => {
				const outcome = await ctx.auth.authenticate(request)
				if (!outcome.ok) throw new HttpError(outcome.status, outcome.body)
				const { phone_number } = checkBody(rest.phone, await readJsonObject(request))
				const userbotId = await userbotOf(service, outcome.principal, String(phone_number))
				if (userbotId === undefined || !runtime)
					throw new HttpError(404, { detail: 'No logged-in userbot of yours has this phone number.' })
				for (const r of requests)
					await runtime
						.invoke(userbotId, r, { label: r._ === 'getMe' ? 'userbots:ready' : `emulator:${action}` })
						.catch(() => undefined)
				return { userbot_id: userbotId, done: action }
			},
			{ parse: 'none' },
		)
	}
	return app
}

async function userbotOf(service: UserbotService, principal: Principal, phone: string) {
	const digits = phone.replace(/\D/g, '')
	const mine = await service.list(principal)
	return mine.find((u) => u.phone_number === digits && u.authorization_state === 'authorizationStateReady')
		?.id
}
