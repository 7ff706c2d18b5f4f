import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { fieldsOf } from '../../src/console-ui/schema-form'
import { getTestInstance, type TestInstance } from '../helpers'

/** The runner's forms come from the catalog: every field of every command gets a control. */
let app: TestInstance
beforeAll(async () => {
	app = await getTestInstance({}, { listen: false })
}, 60_000)
afterAll(() => app.stop(), 60_000)

const command = (name: string) => {
	const found = app.catalog.commands.find((c) => c.name === name)
	if (!found) throw new Error(`no ${name} in the catalog`)
	return fieldsOf(found.input as Parameters<typeof fieldsOf>[0])
}

describe('console: forms from the command catalog', () => {
	it('gives every property of every command a control, and marks the required ones', () => {
		for (const c of app.catalog.commands) {
			const input = c.input as { properties?: Record<string, unknown>; required?: string[] }
			const fields = fieldsOf(input as Parameters<typeof fieldsOf>[0])
			expect(fields.map((f) => f.name)).toEqual(Object.keys(input.properties ?? {}))
			expect(fields.filter((f) => f.required).map((f) => f.name)).toEqual(
				Object.keys(input.properties ?? {}).filter((k) => input.required?.includes(k)),
			)
		}
	})

	it('picks a control by type and fills in the schema defaults', () => {
		const byName = Object.fromEntries(command('get_chat_members').map((f) => [f.name, f]))
		expect(byName.chat_id).toMatchObject({ kind: 'integer', required: true, initial: '' })
		expect(byName.limit).toMatchObject({ kind: 'integer', initial: '50' })
		expect(byName.offset).toMatchObject({ kind: 'integer', initial: '0' })
		expect(byName.query).toMatchObject({ kind: 'string' })
		// A filter by name or as a TDLib object: a JSON box that also takes a bare name.
		expect(byName.member_filter).toMatchObject({ kind: 'json', stringAllowed: true })
		const send = Object.fromEntries(command('send_message').map((f) => [f.name, f]))
		expect(send.media_type).toMatchObject({ kind: 'enum', initial: 'document' })
		expect(send.media_type?.options).toContain('photo')
		expect(send.options).toMatchObject({ kind: 'json', stringAllowed: false })
		// What a person writes is a text area taking plain text; a chat's id offers the chat list.
		expect(send.text).toMatchObject({ kind: 'text', stringAllowed: true })
		expect(send.chat_id).toMatchObject({ kind: 'integer', chatId: true })
		expect(byName.limit?.chatId).toBe(false)
		const privacy = Object.fromEntries(command('set_privacy_setting').map((f) => [f.name, f]))
		expect(privacy.allow_premium_users).toMatchObject({ kind: 'boolean' })
		expect(privacy.mode).toMatchObject({ kind: 'enum', options: ['all', 'contacts', 'nobody'] })
	})
})
