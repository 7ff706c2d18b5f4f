import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as v from 'valibot'
import { createMessagingFixture, type MessagingFixture } from '../helpers-ws'
import { fieldsOf, LIBRARY_WORDING } from './schema-fields'

/**
 * Every message a client can see is one we wrote (issue 7, item 8): every registered command, each
 * field its schema declares, values of every JSON type and a few hostile ones. No reply may carry
 * valibot's own wording (`Invalid type: Expected string but received 5`), a stack, or the value sent.
 */
const VALUES: unknown[] = [
	'x',
	5,
	-1,
	1.5,
	2 ** 60,
	true,
	[],
	[1, 'a'],
	{},
	{ '@type': 5 },
	'\u0000',
	'ﬀ\ud800',
]

describe('wire wording', () => {
	let f: MessagingFixture
	beforeAll(async () => {
		f = await createMessagingFixture()
	})
	afterAll(() => f.stop())

	it('is ours for wrong values in every field of every command', async () => {
		const c = await f.connect()
		const leaks: string[] = []
		let frames = 0
		for (const [name, { command }] of f.t.commands) {
			for (const field of fieldsOf(command.input as v.GenericSchema)) {
				for (const value of VALUES) {
					frames++
					const reply = await c.command({ action: name, userbot_id: f.userbotId, [field]: value })
					const error = reply.payload.error
					if (
						error !== undefined &&
						(LIBRARY_WORDING.test(error) || error.includes('\ud800') || error === '')
					) {
						leaks.push(`${name}.${field} = ${JSON.stringify(value)}: ${error}`)
					}
				}
			}
		}
		expect(leaks).toEqual([])
		// The sweep covered every command of every loaded group.
		expect(frames).toBeGreaterThan(f.t.commands.size * VALUES.length)
		c.close()
	}, 60_000)
})
