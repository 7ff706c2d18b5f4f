import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Elysia } from 'elysia'
import { type DatabaseHandle, openDatabase } from '../db/client'
import { session } from '../db/schema'
import { createLogger, redact } from '../src/common/util/logger'
import { errorHandler } from '../src/server/http/errors'

let dir: string
let handle: DatabaseHandle
beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), 'ubg-log-'))
	handle = await openDatabase(`file:${join(dir, 'app.db')}`)
	await handle.client.execute(
		`create trigger refuse_session before insert on session begin select raise(abort, 'session insert refused'); end`,
	)
})
afterAll(() => {
	handle.close()
	rmSync(dir, { recursive: true, force: true })
})

const SECRETS = {
	idHash: 'id-hash-0123456789abcdef',
	sealed: 'v1.sealed-session-0123456789abcdef',
}

/** The error drizzle throws for a failed insert whose parameters are the secrets above. */
async function failedInsert(): Promise<Error> {
	try {
		await handle.db.insert(session).values({ ...SECRETS, userId: 1, expiresAt: 1 })
	} catch (err) {
		if (err instanceof Error) return err
	}
	throw new Error('the insert did not fail')
}

const capture = () => {
	const lines: string[] = []
	return { lines, log: createLogger('debug', {}, (line) => lines.push(line)) }
}

describe('logging a failed query', () => {
	it('keeps the name, the query text and the driver message, never the parameters', async () => {
		const err = await failedInsert()
		// The premise: drizzle puts the parameters in the message.
		expect(err.message).toContain(SECRETS.sealed)
		const { lines, log } = capture()
		log.error('write failed', { error: err, nested: { error: err } })
		const line = lines[0] ?? ''
		for (const secret of Object.values(SECRETS)) expect(line).not.toContain(secret)
		expect(line).not.toContain('params')
		const record = JSON.parse(line) as { error: { name: string; query: string; cause: string } }
		expect(record.error.name).toBe('DrizzleQueryError')
		expect(record.error.query).toStartWith('insert into "session"')
		expect(record.error.cause).toContain('session insert refused')
	})

	it("strips the parameters of an error that only carries drizzle's message", () => {
		const plain = new Error(
			'Failed query: update "user_profile" set "password_hash" = ?\nparams: $argon2id$secret',
		)
		const wrapped = new Error('login failed', { cause: new Error('x\nparams: $argon2id$other') })
		const { lines, log } = capture()
		log.error('failed', { plain, wrapped })
		expect(lines[0]).not.toContain('$argon2id')
		expect(lines[0]).toContain('update \\"user_profile\\" set')
	})

	it('never writes the parameters from the app-wide error handler', async () => {
		const err = await failedInsert()
		const { lines, log } = capture()
		const app = new Elysia().use(errorHandler(log)).get('/boom', () => {
			throw err
		})
		const res = await app.handle(new Request('http://localhost/boom'))
		expect(res.status).toBe(500)
		const body = await res.text()
		expect(lines).toHaveLength(1)
		for (const secret of Object.values(SECRETS)) {
			expect(body).not.toContain(secret)
			expect(lines[0]).not.toContain(secret)
		}
		expect(JSON.parse(lines[0] ?? '{}').errorCode).toBe('UNKNOWN')
	})
})

describe('redact', () => {
	it('replaces objects nested deeper than 4 levels instead of writing them unmasked', () => {
		const deep = { a: { b: { c: { d: { e: { password: 'hunter2', note: 'x' } } } } } }
		const out = JSON.stringify(redact(deep))
		expect(out).not.toContain('hunter2')
		expect(out).toContain('[truncated]')
		expect(redact([[[[[['x']]]]]])).toEqual([[[[['[truncated]']]]]])
		const { lines, log } = capture()
		log.info('deep', { a: { b: { c: { d: { e: { token: 'tok-secret' } } } } } })
		expect(lines[0]).not.toContain('tok-secret')
	})

	it('masks code and *_code, not names that merely end in "code"', () => {
		const out = redact({
			code: '12345',
			recovery_code: 'r-1',
			phone_code: 'p-1',
			phoneCode: 'p-2',
			emailCode: 'e-1',
			statusCode: 500,
			tdCode: 400,
			errorCode: 'UNKNOWN',
			password: 'pw',
			refresh_token: 't',
			passwordHash: 'h',
		})
		expect(out).toEqual({
			code: '[redacted]',
			recovery_code: '[redacted]',
			phone_code: '[redacted]',
			phoneCode: '[redacted]',
			emailCode: '[redacted]',
			statusCode: 500,
			tdCode: 400,
			errorCode: 'UNKNOWN',
			password: '[redacted]',
			refresh_token: '[redacted]',
			passwordHash: '[redacted]',
		})
	})

	it('masks the fields a child logger was given', () => {
		const { lines, log } = capture()
		log.child({ token: 'child-secret', userbotId: 7 }).info('hello')
		expect(lines[0]).not.toContain('child-secret')
		expect(JSON.parse(lines[0] ?? '{}').userbotId).toBe(7)
	})
})
