import type { Elysia } from 'elysia'
import {
	BEARER_OR_SESSION,
	type EmulatorRequest,
	HttpError,
	OF_COMPANY,
	type Principal,
	ROUTE_ERRORS,
	restRoute,
	RestSchemas as S,
	serveRoutes,
	type TdRequest,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { bodies } from './bodies'
import type { UserbotService } from './lifecycle/service'
import { lifecycleRoutes, type Userbots } from './route-context'

/** An emulator-only request, typed as a TDLib one for `runtime.invoke`. */
const emulatorRequest = (r: EmulatorRequest) => r as unknown as TdRequest<'testCallEmpty'>

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
	// The account's TDLib client stops answering (src/emulator/faults.ts): self-healing.
	hang: [emulatorRequest({ _: 'emulatorHang' } as never)],
} as const

/** One test control: the caller (its guard, before the body), then the phone number of one of their userbots. */
const control = (action: keyof typeof ACTIONS) =>
	restRoute({
		method: 'post',
		path: `/api/emulator/${action}/`,
		// One of the caller's userbots, found by its phone number among those it reaches.
		policy: {
			action: 'manage',
			resource: 'userbot',
			find: [OF_COMPANY],
			permission: 'userbots.manage',
			group: 'userbots',
		},
		body: bodies('rest').phone,
		response: {
			200: v.object({ userbot_id: S.Id(), done: v.string() }),
			...ROUTE_ERRORS.badRequest,
			...ROUTE_ERRORS.authed,
			...ROUTE_ERRORS.notFound,
		},
		detail: {
			operationId: `emulator${action[0]?.toUpperCase()}${action.slice(1)}`,
			summary: `Emulator control: ${action}`,
			tags: ['emulator'],
			security: BEARER_OR_SESSION,
		},
		handle: async ({ ctx, service }: Userbots, { body, principal }) => {
			const userbotId = await userbotOf(service, principal, body.phone_number)
			const runtime = ctx.runtime
			if (userbotId === undefined || !runtime)
				throw new HttpError(404, { detail: 'No logged-in userbot of yours has this phone number.' })
			for (const r of ACTIONS[action])
				await runtime
					.invoke(userbotId, r, { label: r._ === 'getMe' ? 'userbots:ready' : `emulator:${action}` })
					.catch(() => undefined)
			return { userbot_id: userbotId, done: action }
		},
	})

/** The test controls as route definitions: served only when asked for, never described in the document. */
export const emulatorControlList = (Object.keys(ACTIONS) as Array<keyof typeof ACTIONS>).map(control)

export const emulatorControlRoutes = (u: Userbots): Elysia =>
	serveRoutes(u, lifecycleRoutes(emulatorControlList), u.ctx.auth.guard())

async function userbotOf(service: UserbotService, principal: Principal, phone: string) {
	const digits = phone.replace(/\D/g, '')
	const mine = await service.list(principal)
	return mine.find((u) => u.phone_number === digits && u.authorization_state === 'authorizationStateReady')
		?.id
}
