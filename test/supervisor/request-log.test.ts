import { describe, expect, it } from 'bun:test'
import { redacted, shapeOf } from '../../src/runtime/supervisor/request-log'

describe('the conformance record', () => {
	it('keeps a request parseable while writing no password or code', () => {
		const request = {
			_: 'setPassword',
			old_password: 'hunter2',
			new_password: 'correct horse',
			new_hint: 'a hint',
			nested: [{ recovery_code: '123456', code: '11111', name: 'kept' }],
		}
		const out = redacted(request)
		expect(out).toEqual({
			_: 'setPassword',
			old_password: 'redacted',
			new_password: 'redacted',
			new_hint: 'a hint',
			nested: [{ recovery_code: 'redacted', code: 'redacted', name: 'kept' }],
		})
		expect(JSON.stringify(out)).not.toMatch(/hunter2|correct horse|123456|11111/)
	})

	it('reduces a request to its shape: one shape for two texts, another with entities', () => {
		const text = (t: string, entities: unknown[] = []) => ({
			_: 'sendMessage',
			chat_id: 1,
			input_message_content: { _: 'inputMessageText', text: { _: 'formattedText', text: t, entities } },
		})
		expect(shapeOf(text('a'))).toEqual(shapeOf(text('b')))
		expect(shapeOf(text('a', [{ _: 'textEntity', offset: 0, length: 1 }]))).not.toEqual(shapeOf(text('a')))
	})
})
