import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { CatalogCommand } from '../../src/server/catalog/catalog'
import { createMessagingFixture, type MessagingFixture } from '../helpers-ws'

/**
 * What "missing" means, the same in every command: a required field left out, sent as `null` or as
 * `""` gets one answer, `... is required` (docs/protocol.md#error-strings). The table is the catalog itself: every
 * served command, each field its input requires, from the command's own example frame. Over the
 * real WebSocket and gateway.
 */
let f: MessagingFixture
beforeAll(async () => {
	f = await createMessagingFixture()
})
afterAll(() => f.stop())

interface Case {
	command: string
	field: string
	example: Record<string, unknown>
	/** Whether the catalog says the field takes a string (a password, a code, a link, a setting name). */
	text: boolean
}

const takesText = (schema: unknown): boolean => {
	const s = schema as { type?: unknown; anyOf?: unknown[] }
	const types = Array.isArray(s?.type) ? s.type : [s?.type]
	return types.includes('string') || (s?.anyOf ?? []).some(takesText)
}

function cases(commands: readonly CatalogCommand[]): Case[] {
	const out: Case[] = []
	for (const c of commands) {
		const input = c.input as { required?: string[]; properties?: Record<string, unknown> }
		for (const field of input.required ?? []) {
			const example = c.examples.find((e) => field in e)
			if (!example) throw new Error(`${c.name}: no example carries ${field}`)
			out.push({ command: c.name, field, example, text: takesText(input.properties?.[field]) })
		}
	}
	return out
}

describe('a required field left out, null or ""', () => {
	it('is answered `... is required`, the same three ways, in every command', async () => {
		const c = await f.connect()
		const table = cases(f.t.catalog.commands)
		// The sweep reaches the string fields the audit named, and every group's.
		const text = table.filter((x) => x.text).map((x) => `${x.command}.${x.field}`)
		for (const named of [
			'verify_2fa_password.password',
			'check_password_recovery_code.recovery_code',
			'recover_password.recovery_code',
			'change_2fa_password.current_password',
			'change_2fa_recovery_email.new_recovery_email_address',
			'check_recovery_email_address_code.code',
			'transfer_chat_ownership.password',
			'edit_chat_invite_link.invite_link',
			'get_privacy_setting.setting',
			'terminate_session.session_id',
			'userbot_submit_password.password',
		])
			expect(text).toContain(named)
		const differing: string[] = []
		for (const { command, field, example } of table) {
			const answer = async (fields: Record<string, unknown>) =>
				(await c.command({ action: command, userbot_id: f.userbotId, ...fields })).payload
			const { [field]: _, ...without } = example
			const missing = await answer(without)
			const answers = [
				missing,
				await answer({ ...example, [field]: null }),
				await answer({ ...example, [field]: '' }),
			]
			const words = answers.map((p) => `${p.type}: ${p.error}`)
			if (
				missing.type !== `${command}_error` ||
				!/ required$/.test(missing.error ?? '') ||
				new Set(words).size !== 1
			)
				differing.push(`${command}.${field}: ${words.join(' | ')}`)
		}
		expect(differing).toEqual([])
		expect(table.length).toBeGreaterThan(60)
		c.close()
	}, 60_000)
})
