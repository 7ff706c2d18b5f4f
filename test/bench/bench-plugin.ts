import * as v from 'valibot'
import { defineCommand, definePlugin } from '../../src/server/plugin/api'

/**
 * What the shards of the bus benchmark allow: one command that declares `getOption` (TDLib answers
 * it from memory), so the benchmark's requests pass the shard's check as a command's would.
 * Loaded by the shards with `PLUGINS=<this file>`.
 */
export default definePlugin({
	id: 'bench',
	commands: [
		defineCommand({
			name: 'bench_get_option',
			policy: { action: 'write' },
			methods: ['getOption'],
			input: v.looseObject({}),
			run: (_input, ctx) => ctx.invoke({ _: 'getOption', name: 'version' }),
		}),
	],
})
