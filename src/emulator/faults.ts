import type { BackendClient, TdRequest, TdUpdate } from '../runtime/telegram/types'

/**
 * Faults of the TDLib client itself (not of the cloud), played by an emulated client of a
 * supervisor child so that self-healing can be tested offline. Emulator backend only: real TDLib
 * knows no such request, and no command may send an `emulator*` method (the validator allows
 * TDLib's own only); over HTTP only `POST /api/emulator/hang/` reaches it, with EMULATOR_CONTROL.
 *
 * `emulatorHang` makes the client stop answering, as a TDLib client whose process is alive but
 * whose client is stuck: every later request (the liveness probe too) stays unanswered for ever and
 * no update comes; its close still works, unless `close: true` makes that hang as well (the case
 * where only a new process helps).
 */
export type FaultRequest = { _: 'emulatorHang'; close?: boolean }

export function withFaults(inner: BackendClient): BackendClient {
	let hung: false | 'requests' | 'close' = false
	const never = new Promise<never>(() => {})
	return {
		async invoke(request: TdRequest) {
			const r = request as unknown as { _: string; close?: unknown }
			if (hung) return never
			if (r._ === 'emulatorHang') {
				hung = r.close === true ? 'close' : 'requests'
				return { _: 'ok' }
			}
			return inner.invoke(request)
		},
		onUpdate(listener: (u: TdUpdate) => void) {
			inner.onUpdate((u) => {
				if (!hung) listener(u)
			})
		},
		close: () => (hung === 'close' ? never : inner.close()),
	}
}
