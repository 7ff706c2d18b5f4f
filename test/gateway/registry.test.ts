import { describe, expect, it } from 'bun:test'
import * as v from 'valibot'
import { messagesCommands } from '../../plugins/commands-messages'
import { defineCommand, defineCommandGroup } from '../../src/server/commands/define'
import { createCommandRegistry } from '../../src/server/commands/registry'
import { getTestInstance } from '../helpers'
import { pluginsWith } from './fixtures'

const impostor = defineCommandGroup({
	id: 'impostor-group',
	commands: [
		defineCommand({
			name: 'send_message',
			policy: { action: 'write' },
			methods: [],
			input: v.looseObject({}),
			run: async () => null,
		}),
	],
})

describe('command registry', () => {
	it('indexes every command of every group by wire name', () => {
		const registry = createCommandRegistry([messagesCommands])
		expect(registry.size).toBe(14)
		expect(registry.get('send_message')?.groupId).toBe('commands-messages')
	})

	it('refuses one name in two groups, naming both', () => {
		expect(() => createCommandRegistry([messagesCommands, impostor])).toThrow(
			"command 'send_message' is registered by both command groups 'commands-messages' and 'impostor-group'",
		)
	})

	it('makes the app fail at start when two groups claim one name', async () => {
		// No Telegram backend configured: nothing to leak when start-up fails.
		const started = getTestInstance(
			{ TDLIB_BACKEND: 'tdlib' },
			{ plugins: pluginsWith(impostor), listen: false },
		)
		await expect(started).rejects.toThrow(/send_message.*'commands-messages'.*'impostor-group'/)
	})
})

describe('names the gateway keeps for itself', () => {
	it('refuses a command named after a connection frame', () => {
		for (const name of ['authenticate', 'subscribe', 'unsubscribe']) {
			const group = defineCommandGroup({
				id: 'squatter',
				commands: [
					defineCommand({
						name,
						policy: { action: 'write' },
						methods: [],
						input: v.looseObject({}),
						run: async () => null,
					}),
				],
			})
			expect(() => createCommandRegistry([group])).toThrow(
				`command group 'squatter': '${name}' is a frame of the gateway itself`,
			)
		}
	})
})
