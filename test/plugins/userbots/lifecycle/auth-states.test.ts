import { describe, expect, it } from 'bun:test'
import { assertStepAllowed, publicDetail, STATES } from '../../../../plugins/userbots/lifecycle/auth-states'
import { UserbotError } from '../../../../plugins/userbots/lifecycle/errors'

const refusal = (fn: () => void): UserbotError => {
	try {
		fn()
	} catch (err) {
		if (err instanceof UserbotError) return err
		throw err
	}
	throw new Error('no refusal')
}

describe('authorization steps', () => {
	it('takes each step in its own state', () => {
		expect(() => assertStepAllowed('phone', STATES.phone)).not.toThrow()
		expect(() => assertStepAllowed('qr', STATES.phone)).not.toThrow()
		expect(() => assertStepAllowed('code', STATES.code)).not.toThrow()
		expect(() => assertStepAllowed('password', STATES.password)).not.toThrow()
		expect(() => assertStepAllowed('registration', STATES.registration)).not.toThrow()
	})

	it('starts over with a phone number or a QR code exactly where TDLib documents it', () => {
		for (const state of [
			STATES.phone,
			STATES.code,
			STATES.password,
			STATES.registration,
			STATES.premium,
			STATES.emailAddress,
			STATES.emailCode,
		]) {
			expect(() => assertStepAllowed('phone', state)).not.toThrow()
			expect(() => assertStepAllowed('qr', state)).not.toThrow()
		}
		for (const state of [STATES.otherDevice, STATES.ready, STATES.parameters, STATES.closed]) {
			expect(refusal(() => assertStepAllowed('phone', state)).code).toBe('wrong_state')
			expect(refusal(() => assertStepAllowed('qr', state)).code).toBe('wrong_state')
		}
	})

	it('refuses a step in another state, naming what it waits for', () => {
		const e = refusal(() => assertStepAllowed('code', STATES.ready))
		expect(e.status).toBe(400)
		expect(e.code).toBe('wrong_state')
		expect(e.detail).toBe('userbot is not waiting for a code (state: authorizationStateReady)')
		expect(refusal(() => assertStepAllowed('phone', STATES.ready)).detail).toContain(
			'not waiting for a phone number',
		)
	})

	it('says clearly which states are not supported', () => {
		const e = refusal(() => assertStepAllowed('code', STATES.emailCode))
		expect(e.code).toBe('unsupported_state')
		expect(e.detail).toContain('a code sent by email')
		expect(e.detail).toContain('not support')
		expect(refusal(() => assertStepAllowed('password', STATES.emailAddress)).code).toBe('unsupported_state')
	})

	it('shows only the safe parts of a state', () => {
		expect(publicDetail(STATES.otherDevice, { link: 'tg://login?token=abc' })).toEqual({
			link: 'tg://login?token=abc',
		})
		expect(
			publicDetail(STATES.code, {
				code_info: {
					phone_number: '+9996621234',
					type: { _: 'authenticationCodeTypeSms', length: 5 },
					timeout: 60,
				},
			}),
		).toEqual({
			phone_number: '+9996621234',
			code_type: 'authenticationCodeTypeSms',
			code_length: 5,
			timeout: 60,
		})
		expect(
			publicDetail(STATES.code, { code_type: 'authenticationCodeTypeTelegramMessage', code_length: 5 }),
		).toEqual({
			code_type: 'authenticationCodeTypeTelegramMessage',
			code_length: 5,
		})
		expect(
			publicDetail(STATES.password, { password_hint: 'hint', recovery_email_address_pattern: 'a***@b' }),
		).toEqual({
			password_hint: 'hint',
		})
		expect(publicDetail(STATES.ready, { anything: 'secret' })).toEqual({})
	})
})
