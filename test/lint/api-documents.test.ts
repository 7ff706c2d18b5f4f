import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Finding, isBlocking, lintServedDocuments, servedDocuments } from './api-documents'

/**
 * The API documents the server serves pass the standard linters (what `npm run lint:api` runs in
 * CI): Spectral's `spectral:oas` and Redocly's `recommended` with no error and no warning beyond the
 * accepted ones, the AsyncAPI parser with no error and no warning.
 */
type Operation = {
	operationId?: string
	description?: string
	tags?: string[]
	security?: unknown[]
	parameters?: Array<{ name: string; in: string; schema: Record<string, unknown> }>
	responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>
}
type Doc = {
	servers?: Array<{ url: string }>
	tags?: Array<{ name: string; description?: string }>
	paths: Record<string, Record<string, Operation>>
}

const dir = mkdtempSync(join(tmpdir(), 'ubg-api-lint-'))
let findings: Record<string, Finding[]>
let doc: Doc
beforeAll(async () => {
	findings = await lintServedDocuments(dir)
	doc = JSON.parse((await servedDocuments()).openapi['openapi-family-b.json'] ?? '{}') as Doc
}, 300_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const summary = (list: Finding[] = []) => list.filter(isBlocking).map((f) => `${f.tool} ${f.rule} ${f.where}`)

describe('the API documents under the standard linters', () => {
	it('the OpenAPI documents: 0 errors from Spectral and Redocly, only the accepted warnings', () => {
		expect(Object.keys(findings).sort()).toEqual(['asyncapi.json', 'openapi-family-b.json', 'openapi.json'])
		for (const name of ['openapi.json', 'openapi-family-b.json']) {
			const list = findings[name] ?? []
			expect({ name, blocking: summary(list) }).toEqual({ name, blocking: [] })
			// Both linters really ran: each reports the one warning the document keeps on purpose.
			expect(list.some((f) => f.tool === 'spectral' && f.rule === 'info-contact')).toBe(true)
			expect(list.some((f) => f.tool === 'redocly' && f.rule === 'info-license')).toBe(true)
		}
	})

	it('the AsyncAPI document: 0 errors and 0 warnings from the AsyncAPI parser', () => {
		const list = findings['asyncapi.json'] ?? []
		expect(list.filter((f) => f.severity === 'error' || f.severity === 'warning')).toEqual([])
	})
})

describe('what the linters cannot see', () => {
	const operations = () =>
		Object.entries(doc.paths).flatMap(([path, item]) =>
			Object.entries(item).map(([method, op]) => ({ key: `${method} ${path}`, op })),
		)

	it('readable operation ids, a description and a declared tag on every operation, and servers', () => {
		expect(doc.servers?.length).toBeGreaterThan(0)
		const declared = new Set(doc.tags?.map((t) => t.name))
		for (const { key, op } of operations()) {
			expect({ key, id: /^[a-z][A-Za-z]+$/.test(op.operationId ?? '') }).toEqual({ key, id: true })
			expect({ key, described: (op.description?.length ?? 0) > 10 }).toEqual({ key, described: true })
			expect({ key, tags: op.tags?.filter((t) => !declared.has(t)) }).toEqual({ key, tags: [] })
		}
		expect(doc.paths['/api/userbots/{id}/phone/']?.post?.operationId).toBe('submitUserbotPhone')
		expect(doc.paths['/api/accounts/login/']?.post?.operationId).toBe('logInOnMainServer')
	})

	it('public routes say `security: []`, the others name bearer or session', () => {
		expect(doc.paths['/accounts/login/']?.post?.security).toEqual([])
		expect(doc.paths['/accounts/register/']?.post?.security).toEqual([])
		expect(doc.paths['/health']?.get?.security).toEqual([])
		expect(doc.paths['/accounts/me/']?.get?.security).toEqual([{ bearer: [] }, { session: [] }])
	})

	it('ids are integers with a format, authorization states and permissions are enums', () => {
		const param = (path: string, method: string, name: string) =>
			doc.paths[path]?.[method]?.parameters?.find((p) => p.name === name)?.schema
		expect(param('/api/userbots/{id}/', 'get', 'id')).toMatchObject({ type: 'integer', format: 'int64' })
		expect(param('/api/userbots/{id}/files/{file_id}', 'get', 'file_id')).toMatchObject({
			type: 'integer',
			format: 'int32',
		})
		expect(param('/accounts/members/{id}/grants/{permission}/', 'delete', 'permission')?.enum).toContain(
			'userbots.manage',
		)
		const userbot = doc.paths['/api/userbots/{id}/']?.get?.responses['200']?.content?.['application/json']
			?.schema as { properties: Record<string, Record<string, unknown>> }
		expect(userbot.properties.id).toMatchObject({ type: 'integer', format: 'int64' })
		expect(userbot.properties.authorization_state?.enum).toContain('authorizationStateWaitPhoneNumber')
		expect(userbot.properties.authorization_state?.enum).toContain('authorizationStateReady')
	})
})
