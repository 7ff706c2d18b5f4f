import { describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError, isTdFunction, tdFunctionNames } from 'userbot-gateway/plugin'
import {
	ACTING_GETS,
	DENIED,
	expandMethods,
	isDenied,
	TD_INVOKE_SETTINGS,
} from '../../../plugins/commands-td-invoke'
import { tdInvokeCommand } from '../../../plugins/commands-td-invoke/td-invoke'

/** The allow-list's sets and the deny-list, against TDLib 1.8.65's schema. */
describe('the deny-list', () => {
	it('names TDLib 1.8.65 functions only, each group with its reason', () => {
		for (const group of DENIED) {
			expect(group.reason.length).toBeGreaterThan(20)
			expect(group.methods.length).toBeGreaterThan(0)
			for (const m of group.methods) expect([m, isTdFunction(m)]).toEqual([m, true])
		}
	})

	it('holds what issue 46 names: log streams, TDLib parameters, database keys, account deletion, logging out', () => {
		for (const m of [
			'setLogStream',
			'getLogStream',
			'setLogVerbosityLevel',
			'setLogTagVerbosityLevel',
			'addLogMessage',
			'setTdlibParameters',
			'setDatabaseEncryptionKey',
			'deleteAccount',
			'logOut',
			'close',
			'destroy',
			'setAuthenticationPhoneNumber',
			'checkAuthenticationCode',
			'checkAuthenticationPassword',
			'addProxy',
			'getProxies',
			'setOption',
		])
			expect([m, isDenied(m)]).toEqual([m, true])
		for (const m of ['getChat', 'getMe', 'getOption', 'sendMessage'])
			expect([m, isDenied(m)]).toEqual([m, false])
	})
})

describe('docs/operator.md#any-tdlib-method', () => {
	it('names every denied method (those with Authentication in their name as a rule), and the sets', () => {
		const doc = readFileSync(join(import.meta.dir, '../../../docs/operator.md'), 'utf8')
		const section = doc.slice(doc.indexOf('## Any TDLib method'), doc.indexOf('## Userbot proxies'))
		expect(section).toContain('every method with `Authentication` in its name')
		const unnamed = DENIED.flatMap((g) => g.methods)
			.filter((m) => !m.includes('Authentication'))
			.filter((m) => !section.includes(`\`${m}\``))
		expect(unnamed).toEqual([])
		for (const m of ACTING_GETS) expect(section).toContain(`\`${m}\``)
	})
})

describe('the sets', () => {
	it('read: every get*/search* method, but the denied ones and those that act', () => {
		const read = expandMethods(['read'])
		const expected = tdFunctionNames()
			.filter((m) => /^(get|search)[A-Z]/.test(m))
			.filter((m) => !isDenied(m) && !ACTING_GETS.includes(m))
			.sort()
		expect(read).toEqual(expected)
		expect(read).toContain('getChat')
		expect(read).toContain('searchPublicChat')
		expect(read).not.toContain('sendMessage')
		expect(read).not.toContain('getLogStream')
		expect(read).not.toContain('getLoginUrl')
		for (const m of ACTING_GETS) expect([m, isTdFunction(m)]).toEqual([m, true])
	})

	it('all: every method but the denied ones; names beside sets, once each', () => {
		const all = expandMethods(['all'])
		expect(all.length).toBe(tdFunctionNames().filter((m) => !isDenied(m)).length)
		expect(all.some(isDenied)).toBe(false)
		expect(expandMethods(['getChat', 'read', 'getChat', 'setLogStream'])).toEqual(expandMethods(['read']))
		expect(expandMethods([])).toEqual([])
	})

	it('makes td_invoke destructive only when its list holds more than reads', () => {
		expect(tdInvokeCommand(expandMethods(['read'])).policy).toEqual({ action: 'manage', tdInvoke: true })
		expect(tdInvokeCommand([]).policy).toEqual({ action: 'manage', tdInvoke: true })
		expect(tdInvokeCommand(['getChat', 'deleteChat']).policy).toEqual({
			action: 'manage',
			tdInvoke: true,
			destructive: true,
		})
	})
})

describe('TD_INVOKE_METHODS', () => {
	it('reads names and sets, comma-separated; empty by default', () => {
		expect(TD_INVOKE_SETTINGS.read({}).methods).toEqual([])
		expect(TD_INVOKE_SETTINGS.read({ TD_INVOKE_METHODS: ' getChat , read,' }).methods).toEqual([
			'getChat',
			'read',
		])
	})

	it('stops the start on a name that is neither, without repeating it', () => {
		let caught: unknown
		try {
			TD_INVOKE_SETTINGS.read({ TD_INVOKE_METHODS: 'getChat,getChatSecretTypo' })
		} catch (err) {
			caught = err
		}
		expect(caught).toBeInstanceOf(ConfigError)
		expect((caught as Error).message).toBe(
			'TD_INVOKE_METHODS: must be TDLib 1.8.65 method names or the sets read, all, comma-separated',
		)
	})
})
