import { describe, expect, it } from 'bun:test'
import { validatePassword } from '../../src/server/auth/password-policy'

describe('validatePassword', () => {
	it('accepts a strong password unrelated to the user', () => {
		expect(validatePassword('Vq7#pLm2!xZr9wTb', { email: 'ada@example.com', first_name: 'Ada' })).toEqual([])
	})

	it('refuses short, numeric and common passwords', () => {
		expect(validatePassword('aB3$')).toContain(
			'This password is too short. It must contain at least 8 characters.',
		)
		expect(validatePassword('83749265019')).toContain('This password is entirely numeric.')
		expect(validatePassword('password123')).toContain('This password is too common.')
		expect(validatePassword('PASSWORD123')).toContain('This password is too common.')
	})

	it('refuses passwords too similar to the email or the names', () => {
		expect(validatePassword('johnathandoe', { email: 'johnathan.doe@example.com' })).toEqual([
			'The password is too similar to the email address.',
		])
		expect(validatePassword('Hopper1984', { last_name: 'Hopper' })).toContain(
			'The password is too similar to the last name.',
		)
	})

	it("lists problems in Django's validator order, with Django's words", () => {
		expect(validatePassword('ada1', { first_name: 'Ada1' })).toEqual([
			'The password is too similar to the first name.',
			'This password is too short. It must contain at least 8 characters.',
		])
		expect(validatePassword('1234567')).toEqual([
			'This password is too short. It must contain at least 8 characters.',
			'This password is too common.',
			'This password is entirely numeric.',
		])
	})

	it('does not call a long password similar to a much shorter attribute', () => {
		expect(validatePassword('al-Kx9!qW2#zPm7$rT', { first_name: 'Al' })).toEqual([])
	})
})
