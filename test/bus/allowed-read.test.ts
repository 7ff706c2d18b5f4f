import { describe, expect, it } from 'bun:test'
import { userbots } from '../../plugins/userbots'
import { createLogger } from '../../src/common/util/logger'
import { checkShardRequest, methodsByLabel } from '../../src/runtime/bus/allowed'
import type { InvokeMessage } from '../../src/runtime/supervisor/protocol'
import { READ_PART_BYTES } from '../../src/runtime/telegram/file-parts'
import { checkTdRequest } from '../../src/server/commands/td-request'

/**
 * What a shard lets through for the files route's reads of a file on its host (`userbots:read`): the
 * label the userbots plugin declares (`labels`), as a shard reads it from the plugins it loads.
 */
const byLabel = methodsByLabel([userbots()])
const opts = {
	methodsOf: (label: string | undefined) => (label ? byLabel.get(label) : undefined),
	// The gateway's check, as the composition root hands it to a shard (src/app/index.ts).
	checkRequest: checkTdRequest,
	dataDir: '/nonexistent',
	emulator: false,
}
const log = createLogger('silent')
const message = (label: string, request: Record<string, unknown>) =>
	({ type: 'invoke', id: 1, userbotId: 7, label, request }) as unknown as InvokeMessage
const check = (label: string, request: Record<string, unknown>) => () =>
	checkShardRequest(message(label, request), opts, log)
const read = (count: unknown) => ({ _: 'readFilePart', file_id: 5, offset: 0, count })

describe('a shard and readFilePart', () => {
	it('lets readFilePart through under userbots:read, and only it', () => {
		expect(byLabel.get('userbots:read')).toEqual(new Set(['readFilePart']))
		expect(check('userbots:read', read(1))).not.toThrow()
		expect(check('userbots:read', read(READ_PART_BYTES))).not.toThrow()
		expect(check('userbots:read', { _: 'getFile', file_id: 5 })).toThrow()
		expect(check('userbots:file', read(10))).toThrow()
	})

	it('refuses a part of 0 (TDLib: the whole rest), a negative one, or one over the limit', () => {
		for (const count of [0, -1, READ_PART_BYTES + 1, 2 ** 40]) {
			expect(check('userbots:read', read(count))).toThrow(
				`readFilePart reads 1 to ${READ_PART_BYTES} bytes a call`,
			)
		}
	})
})

describe('the labels a plugin declares', () => {
	it("are its own: one outside its id's prefix stops the shard, naming it", () => {
		const wide = [{ id: 'notes', labels: { 'userbots:phone': 'sendMessage' } }]
		expect(() => methodsByLabel(wide)).toThrow(
			"plugin 'notes': its label 'userbots:phone' does not start with 'notes:'",
		)
		expect(methodsByLabel([{ id: 'notes', labels: { 'notes:ping': 'getMe' } }]).get('notes:ping')).toEqual(
			new Set(['getMe']),
		)
	})
})
