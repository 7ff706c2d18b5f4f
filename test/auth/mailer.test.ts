import { describe, expect, it } from 'bun:test'
import { ACCOUNTS_SETTINGS } from '../../plugins/accounts/settings'
import { createLogger } from '../../src/common/util/logger'
import { createMailer } from '../../src/server/auth/mailer'

describe('createMailer without SMTP_URL', () => {
	it('writes the whole message, link and token included, to the log at info level', async () => {
		const lines: string[] = []
		const log = createLogger('info', {}, (line) => lines.push(line))
		// The accounts plugin's settings with nothing set: no SMTP_URL.
		const mailer = createMailer(ACCOUNTS_SETTINGS.read({}), log)
		const text = 'Open http://127.0.0.1:8000/reset-password#token=abc123XYZ&email=a%40b.c'
		await mailer.send({ to: 'a@b.c', subject: 'Password reset', text })
		expect(lines).toHaveLength(1)
		const record = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>
		expect(record.level).toBe('info')
		expect(record.mail).toBe(text)
	})
})
