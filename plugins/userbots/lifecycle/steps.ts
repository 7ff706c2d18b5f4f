import type { TdMethod, TdRequest } from 'userbot-gateway/plugin'
import { assertStepAllowed, LIFECYCLE_METHODS, STATES, type Step } from './auth-states'
import type { Row } from './clients'
import { UserbotError } from './errors'
import type { LifecycleParts } from './parts'
import { callTelegram } from './runtime-calls'

/** How long a step waits, after TDLib said Ok, for the state change it caused. */
const SETTLE_MS = 3_000

/**
 * One log-in step: the client started if need be, the step checked against the state the owner
 * knows, its one TDLib method sent, then the state it caused waited for (at most `SETTLE_MS`).
 * `row` is the caller's live userbot, found before (another company's is a 404 first).
 */
export async function runStep(
	parts: LifecycleParts,
	row: Row,
	step: Step,
	request: TdRequest<TdMethod>,
): Promise<{ authorization_state: string }> {
	// The method a shard on the bus allows this step (`LIFECYCLE_METHODS`), and no other.
	if (request._ !== LIFECYCLE_METHODS[`userbots:${step}`])
		throw new Error(`userbots:${step} sends ${request._}`)
	const { states, clients } = parts
	const userbotId = row.id
	const runtime = clients.runtime()
	await clients.ensure(row)
	assertStepAllowed(step, states.current(userbotId, row.authorizationState))
	const seq = states.seq(userbotId)
	try {
		await callTelegram(runtime, userbotId, request, parts.stepDeadline, `userbots:${step}`)
	} catch (err) {
		// Cut short by a delete (TDLib's `500 Request aborted`, or no client any more).
		states.assertLive(userbotId)
		throw err
	}
	await states.next(userbotId, seq, SETTLE_MS)
	states.assertLive(userbotId)
	return { authorization_state: states.current(userbotId, row.authorizationState) }
}

/** The QR log-in link: the one shown now, else a fresh one requested of TDLib. */
export async function qrLink(
	parts: LifecycleParts,
	find: () => Promise<Row>,
	userbotId: number,
): Promise<{ link: string }> {
	const { states } = parts
	const shown = (): string | null => {
		const link = states.detail(userbotId)?.link
		return states.view(userbotId).state === STATES.otherDevice && typeof link === 'string' ? link : null
	}
	const existing = shown()
	if (existing) {
		await find()
		return { link: existing }
	}
	await runStep(parts, await find(), 'qr', { _: 'requestQrCodeAuthentication', other_user_ids: [] })
	const link = shown()
	if (!link) throw new UserbotError(502, 'Telegram sent no log-in link; try again', 'no_link')
	return { link }
}
