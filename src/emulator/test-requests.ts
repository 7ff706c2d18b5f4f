import { TdError, type TdRequest } from '../runtime/telegram/types'
import { confirmQrCode } from './auth'
import { type PasswordEmulatorRequest, passwordEmulatorRequest } from './auth/password'
import { holdDownloads } from './files/downloads'
import { sendFromOtherDevice } from './messages/send'
import type { Session } from './session'

/**
 * `setNetworkType(networkTypeNone)` takes a client offline: the log-in steps and `logOut` then wait
 * for the network, as TDLib's do, and fail `500 Request aborted` when the client closes first.
 *
 * Emulator-only requests, not part of TDLib: `emulatorDelay {ms}` answers after a pause (tests of
 * deadlines); `emulatorConfirmQrCode {phone_number}` plays the other device scanning the QR code;
 * `emulatorFailNext {method, code, message}` makes this client's next request of `method` fail with
 * that error (the failures the cloud has and the emulator does not: floods, outages, a step that
 * fails after another succeeded); `emulatorLatency {ms}` makes every later request of this client
 * answer `ms` later, having done its work first (a slow cloud: the late answer carries real
 * effects), until `emulatorLatency {ms: 0}`; `emulatorSlowClose {ms}` makes this client's close take
 * that much longer, as real TDLib's does while it flushes its database (tests of hand-overs);
 * `emulatorRevoke` ends this client's session as another device of the account would;
 * `emulatorHoldDownloads {hold}` holds this client's downloads after their current part, or lets them
 * go (downloads.ts); `emulatorSendFromOtherDevice {chat_id, text}` plays another device of the
 * account sending a text (every member's client, this one too, hears the sent message as
 * `updateNewMessage`, without `sending_state`: TDLib's client never sent it). Domains
 * add their own (`password.ts`: reading the emulated mail, a session's age).
 */
export type EmulatorRequest =
	| { _: 'emulatorDelay'; ms: number }
	| { _: 'emulatorConfirmQrCode'; phone_number: string }
	| { _: 'emulatorFailNext'; method: string; code: number; message: string }
	| { _: 'emulatorLatency'; ms: number }
	| { _: 'emulatorSlowClose'; ms: number }
	| { _: 'emulatorRevoke' }
	| { _: 'emulatorHoldDownloads'; hold: boolean }
	| { _: 'emulatorSendFromOtherDevice'; chat_id: number; text: string }
	| PasswordEmulatorRequest

const DOMAIN_EMULATOR_REQUESTS = new Set(['emulatorReadMail', 'emulatorSetSessionAge'])

export interface TestSettings {
	/** `emulatorFailNext`: the error the next request of a method gets instead of its answer. */
	failures: Map<string, TdError>
	/** `emulatorLatency`: how much later than done each answer is given. */
	latencyMs: number
	/** `emulatorSlowClose`: how much longer this client's close takes. */
	closeDelayMs: number
}

/** The emulator-only requests; `undefined` for a TDLib request. */
export async function emulatorOnly(session: Session, settings: TestSettings, request: TdRequest) {
	const raw = request as unknown as {
		_: string
		ms?: number
		phone_number?: string
		method?: string
		code?: number
		message?: string
		hold?: boolean
		chat_id?: number
		text?: string
	}
	const ms = Math.max(0, Number(raw.ms) || 0)
	switch (raw._) {
		case 'emulatorDelay':
			await Bun.sleep(ms)
			return { _: 'ok' }
		case 'emulatorSlowClose':
			settings.closeDelayMs = ms
			return { _: 'ok' }
		case 'emulatorConfirmQrCode':
			return confirmQrCode(session, String(raw.phone_number ?? ''))
		case 'emulatorRevoke':
			// Another device of the account ended this session: the client logs out by itself.
			if (session.key) session.world.revoke(session.key)
			return { _: 'ok' }
		case 'emulatorHoldDownloads':
			holdDownloads(session, raw.hold === true)
			return { _: 'ok' }
		case 'emulatorSendFromOtherDevice':
			return sendFromOtherDevice(session, Number(raw.chat_id), String(raw.text ?? ''))
		case 'emulatorLatency':
			settings.latencyMs = ms
			return { _: 'ok' }
		case 'emulatorFailNext':
			settings.failures.set(
				String(raw.method),
				new TdError(Number(raw.code) || 400, String(raw.message ?? '')),
			)
			return { _: 'ok' }
		default:
			return DOMAIN_EMULATOR_REQUESTS.has(raw._)
				? passwordEmulatorRequest(session, request as unknown as PasswordEmulatorRequest)
				: undefined
	}
}
