import { describe, expect, it } from 'bun:test'
import { DEFAULT_FLOOD_LIMITS } from '../../src/runtime/flood/limits'
import { loadConfig } from '../../src/server/config'

const limitsOf = (env: Record<string, string>) =>
	loadConfig({ DATA_DIR: '/tmp/ubg-flood-config', ...env }).flood.limits

describe('FLOOD_LIMITS: the governor paces ahead of the Telegram it talks to', () => {
	it('real TDLib: the documented defaults, overridden key by key, or off', () => {
		expect(limitsOf({ TDLIB_BACKEND: 'tdlib' })).toEqual(DEFAULT_FLOOD_LIMITS)
		expect(limitsOf({ TDLIB_BACKEND: 'tdlib', FLOOD_LIMITS: 'send_chat=2/1' })).toEqual({
			...DEFAULT_FLOOD_LIMITS,
			send_chat: { count: 2, seconds: 1 },
		})
		expect(limitsOf({ TDLIB_BACKEND: 'tdlib', FLOOD_LIMITS: 'off' })).toBeNull()
	})

	it('the emulator: its own limits when FLOOD_LIMITS is unset, none when it has none', () => {
		expect(limitsOf({ TDLIB_BACKEND: 'emulator' })).toBeNull()
		expect(limitsOf({ TDLIB_BACKEND: 'emulator', EMULATOR_FLOOD_LIMITS: 'send_chat=10/10,delay=2' })).toEqual(
			{ send_chat: { count: 10, seconds: 10 } },
		)
		// Set explicitly, FLOOD_LIMITS counts on the emulator too (over the defaults).
		expect(limitsOf({ TDLIB_BACKEND: 'emulator', FLOOD_LIMITS: 'join=5/3600' })).toEqual({
			...DEFAULT_FLOOD_LIMITS,
			join: { count: 5, seconds: 3600 },
		})
	})
})
