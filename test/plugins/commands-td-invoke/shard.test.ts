import { describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { tdInvokePlugin } from '../../../plugins/commands-td-invoke'
import { choosePlugins } from '../../../src/app'
import { createLogger } from '../../../src/common/util/logger'
import { checkShardRequest, methodsByLabel } from '../../../src/runtime/bus/allowed'
import type { InvokeMessage } from '../../../src/runtime/supervisor/protocol'
import { checkTdRequest } from '../../../src/server/commands/td-request'
import { loadConfig } from '../../../src/server/config'

/**
 * What a shard lets through under td_invoke's label: the plugins it chooses, as a gateway does, carry
 * the allow-list as td_invoke's methods (commandsFor), so a shard refuses any other method again.
 */
const log = createLogger('silent')
const message = (request: Record<string, unknown>) =>
	({ type: 'invoke', id: 1, userbotId: 7, label: 'td_invoke', request }) as unknown as InvokeMessage

async function shardCheck(env: Record<string, string>) {
	const dir = mkdtempSync(join(tmpdir(), 'ubg-td-shard-'))
	try {
		const config = loadConfig({ DATA_DIR: dir, TDLIB_BACKEND: 'emulator', LOG_LEVEL: 'silent', ...env })
		const { chosen } = await choosePlugins(config, [tdInvokePlugin()], false)
		const byLabel = methodsByLabel(chosen)
		const opts = {
			methodsOf: (l?: string) => (l ? byLabel.get(l) : undefined),
			// The gateway's check, as the composition root hands it to a shard (src/app/index.ts).
			checkRequest: checkTdRequest,
			dataDir: dir,
			emulator: false,
		}
		return {
			methods: byLabel.get('td_invoke'),
			check: (r: Record<string, unknown>) => () => checkShardRequest(message(r), opts, log),
		}
	} finally {
		rmSync(dir, { recursive: true, force: true })
	}
}

describe('a shard and td_invoke', () => {
	it('lets through the allow-list, less the denied methods, and nothing else', async () => {
		const { methods, check } = await shardCheck({ TD_INVOKE_METHODS: 'getChat,getMe,setLogStream' })
		expect(methods).toEqual(new Set(['getChat', 'getMe']))
		expect(check({ _: 'getChat', chat_id: 1 })).not.toThrow()
		expect(check({ _: 'getChats', limit: 1 })).toThrow('undeclared TDLib method')
		expect(check({ _: 'setLogStream', log_stream: { _: 'logStreamEmpty' } })).toThrow(
			'undeclared TDLib method',
		)
	})

	it('lets nothing through when td_invoke is off', async () => {
		const { methods, check } = await shardCheck({})
		expect(methods).toEqual(new Set())
		expect(check({ _: 'getMe' })).toThrow('undeclared TDLib method')
	})
})
