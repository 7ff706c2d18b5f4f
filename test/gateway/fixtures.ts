import * as v from 'valibot'
import { accounts } from '../../plugins/accounts'
import { messagesCommands } from '../../plugins/commands-messages'
import { userbots } from '../../plugins/userbots'
import { emulatorRequest } from '../../src/emulator'
import type { TdMethod } from '../../src/runtime/telegram/types'
import {
	CommandError,
	type CommandGroup,
	defineCommand,
	defineCommandGroup,
} from '../../src/server/commands/define'
import { definePlugin, type PluginDefinition } from '../../src/server/plugin/define'

/** The emulator's own pause, typed as the TDLib method it is sent as. */
const emulatorDelay = 'emulatorDelay' as TdMethod

/** Commands that exist only in tests: a slow one (deadlines), one that crashes, one with a partial result. */
export const testCommands = defineCommandGroup({
	id: 'test-commands',
	commands: [
		defineCommand({
			name: 'test_sleep',
			policy: { action: 'write' },
			methods: [emulatorDelay],
			input: v.looseObject({ ms: v.optional(v.number(), 0) }),
			run: (input, ctx) => ctx.invoke(emulatorRequest({ _: 'emulatorDelay', ms: input.ms })),
		}),
		defineCommand({
			name: 'test_crash',
			policy: { action: 'write' },
			methods: [],
			input: v.looseObject({}),
			run: async () => {
				throw new Error('secret internal detail /etc/shadow')
			},
		}),
		defineCommand({
			name: 'test_partial',
			policy: { action: 'write' },
			methods: [],
			input: v.looseObject({}),
			run: async () => {
				throw new CommandError('half done', { done: 1 })
			},
		}),
		defineCommand({
			name: 'test_undeclared',
			policy: { action: 'write' },
			methods: ['getMe'],
			input: v.looseObject({}),
			// Declares getMe, sends getChats: the gateway refuses what a command does not declare.
			run: (_input, ctx) => ctx.invoke({ _: 'getChats', limit: 1 }),
		}),
		defineCommand({
			name: 'test_unworded',
			policy: { action: 'write' },
			methods: [],
			// A schema with no message of its own: valibot's default wording must not reach the wire.
			input: v.looseObject({ count: v.optional(v.number()), tags: v.optional(v.array(v.string())) }),
			run: async (input) => input.count ?? null,
		}),
		defineCommand({
			name: 'test_no_auth',
			policy: { action: 'write' },
			methods: [],
			input: v.looseObject({}),
			requiresAuthorization: false,
			run: async (_input, ctx) => ({ userbot: ctx.userbotId }),
		}),
	],
})

/**
 * The plugin list with extra groups registered under the messages plugin's id (PLUGINS only knows
 * the real plugin ids).
 */
export function pluginsWith(...groups: CommandGroup[]): PluginDefinition[] {
	return [
		accounts(),
		userbots(),
		definePlugin({
			id: 'commands-messages',
			build(ctx) {
				ctx.registerCommands(messagesCommands)
				for (const g of groups) ctx.registerCommands(g)
				return null
			},
		}),
	]
}

/**
 * `test_held`: answered only when the test says (`release()`), so that a command is in flight for
 * as long as a test needs, with no timer to race. `started` counts the runs begun.
 */
export function heldCommands() {
	let open: () => void = () => {}
	let gate = new Promise<void>((resolve) => {
		open = resolve
	})
	const state = { started: 0 }
	const group = defineCommandGroup({
		id: 'test-held',
		commands: [
			defineCommand({
				name: 'test_held',
				policy: { action: 'write' },
				methods: [],
				input: v.looseObject({}),
				requiresAuthorization: false,
				run: async () => {
					state.started++
					await gate
					return { released: true }
				},
			}),
		],
	})
	return {
		group,
		state,
		release() {
			open()
		},
		/** A new gate: later runs wait again. */
		hold() {
			gate = new Promise<void>((resolve) => {
				open = resolve
			})
		},
	}
}
