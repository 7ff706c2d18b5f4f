import { afterAll, beforeAll, expect } from 'bun:test'
import { builtInPlugins } from '../../src/app'
import type { PluginDefinition } from '../../src/server/plugin/define'
import { getTestInstance, type TestInstance } from '../helpers'

/**
 * What a plugin's nickname route answers (rest-route.test.ts): DRF's field errors, never the value
 * sent, and DRF's answers for a body that is no JSON object.
 */
export type Post = (
	path: string,
	body: string | undefined,
	headers?: Record<string, string>,
) => Promise<{ status: number; text: string }>

/** The body's refusals; the handler (which pushes to `seen`) never called. */
export async function expectRefusals(path: string, post: Post, seen: unknown[], SECRET: string) {
	const send = (value: unknown) => post(path, JSON.stringify(value))
	seen.length = 0
	const missing = await send({})
	expect(missing.status).toBe(400)
	expect(JSON.parse(missing.text)).toEqual({
		email: ['This field is required.'],
		nickname: ['This field is required.'],
	})
	const wrong = await send({
		email: `${SECRET}@`,
		nickname: `${SECRET}`,
		adult: SECRET,
		note: 7,
		tags: [SECRET, 'b', 'c'],
	})
	expect(wrong.status).toBe(400)
	expect(JSON.parse(wrong.text)).toEqual({
		email: ['Enter a valid email address.'],
		nickname: ['Ensure this field has no more than 5 characters.'],
		adult: ['Must be a valid boolean.'],
		note: ['Not a valid string.'],
		tags: ['At most two tags.'],
	})
	expect(wrong.text).not.toContain(SECRET)
	const nulls = await send({ email: null, nickname: 'ok', note: null })
	expect(JSON.parse(nulls.text)).toEqual({ email: ['This field may not be null.'] })
	const blank = await send({ email: '  ', nickname: 'ok' })
	expect(JSON.parse(blank.text)).toEqual({ email: ['This field may not be blank.'] })
	const control = await send({ email: 'a\u0007@b.co', nickname: 'ok' })
	expect(JSON.parse(control.text)).toEqual({ email: ['Control characters are not allowed.'] })
	expect(seen).toEqual([])
}

/** A body that is no JSON object, none at all, or one too big. */
export async function expectNoObject(path: string, post: Post) {
	expect(await post(path, '{"email":')).toEqual({
		status: 400,
		text: JSON.stringify({ detail: 'JSON parse error - the request body is not valid JSON' }),
	})
	expect(JSON.parse((await post(path, '[1]')).text)).toEqual({
		non_field_errors: ['Invalid data. Expected a dictionary, but got list.'],
	})
	expect(JSON.parse((await post(path, 'null')).text)).toEqual({
		non_field_errors: ['No data provided'],
	})
	// No body: DRF's empty data, so the fields say what is missing.
	expect(JSON.parse((await post(path, undefined)).text)).toEqual({
		email: ['This field is required.'],
		nickname: ['This field is required.'],
	})
	const big = await post(path, JSON.stringify({ nickname: 'x'.repeat(3 * 1024 * 1024) }))
	expect(big.status).toBe(413)
}

/** The app with the built-in plugins and `plugin`, for the file's tests: its URL and a JSON poster. */
export function serveWith(plugin: PluginDefinition) {
	let instance: TestInstance
	beforeAll(async () => {
		instance = await getTestInstance({}, { plugins: [...builtInPlugins, plugin] })
	})
	afterAll(() => instance.stop())
	const post: Post = async (path, body, headers = {}) => {
		const res = await fetch(`${instance.url}${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body,
		})
		return { status: res.status, text: await res.text() }
	}
	return { post, url: () => instance.url }
}
