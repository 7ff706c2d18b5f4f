import { describe, expect, it } from 'bun:test'
import { parseCommand } from '../src/entry/cli'

describe('parseCommand', () => {
	it('serves without arguments or with serve', () => {
		expect(parseCommand([])).toEqual({ kind: 'serve' })
		expect(parseCommand(['serve'])).toEqual({ kind: 'serve' })
	})

	it('knows migrate, help, version and the hidden supervisor-child', () => {
		expect(parseCommand(['migrate'])).toEqual({ kind: 'migrate' })
		expect(parseCommand(['--help'])).toEqual({ kind: 'help' })
		expect(parseCommand(['-h'])).toEqual({ kind: 'help' })
		expect(parseCommand(['--version'])).toEqual({ kind: 'version' })
		expect(parseCommand(['-v'])).toEqual({ kind: 'version' })
		expect(parseCommand(['supervisor-child'])).toEqual({ kind: 'supervisor-child' })
	})

	it('refuses an unknown command or a stray argument with one line', () => {
		expect(parseCommand(['migrat'])).toEqual({
			kind: 'unknown',
			line: 'unknown command "migrat": see --help',
		})
		expect(parseCommand(['unknown'])).toEqual({
			kind: 'unknown',
			line: 'unknown command "unknown": see --help',
		})
		expect(parseCommand(['migrate', '--force'])).toEqual({
			kind: 'unknown',
			line: 'migrate takes no arguments (got "--force"): see --help',
		})
	})

	it('takes backup and restore with exactly one folder', () => {
		expect(parseCommand(['backup', '/srv/backups/today'])).toEqual({
			kind: 'backup',
			path: '/srv/backups/today',
		})
		expect(parseCommand(['restore', 'b'])).toEqual({ kind: 'restore', path: 'b' })
		for (const args of [['backup'], ['restore', 'a', 'b'], ['backup', '']]) {
			expect(parseCommand(args)).toEqual({
				kind: 'unknown',
				line: `${args[0]} takes one argument, a folder: ${args[0]} PATH (see --help)`,
			})
		}
	})
})
