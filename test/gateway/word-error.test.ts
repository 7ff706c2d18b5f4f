import { describe, expect, it } from 'bun:test'
import { RuntimeError, TdError } from '../../src/runtime/telegram/types'
import { CommandError } from '../../src/server/commands/define'
import { wordError } from '../../src/server/gateway/errors'

describe('wordError', () => {
	it('words every failure as the wire says it, in one place', () => {
		expect(wordError(new CommandError('reaction is required'))).toBe('reaction is required')
		expect(wordError(new TdError(400, 'Chat not found'))).toBe('Chat not found')
		expect(wordError(new TdError(406, 'UPDATE_APP_TO_LOGIN'))).toBe('request failed')
		expect(wordError(new RuntimeError('timeout', 'x'))).toBe('timeout')
		expect(wordError(new RuntimeError('runtime_down', 'x'))).toBe('userbot runtime restarted, try again')
		// A client gone between the gateway's check and the request reads as the check would say it.
		expect(wordError(new RuntimeError('no_client', 'x'))).toBe('userbot runtime unavailable')
		expect(wordError(new RuntimeError('unavailable', 'x'))).toBe('userbot runtime unavailable')
		expect(wordError(new Error('secret detail /etc/shadow'))).toBe('internal error')
	})
})
