import { describe, expect, it } from 'bun:test'
import { Elysia } from 'elysia'
import * as v from 'valibot'
import { builtInPlugins } from '../../src/app'
import { defineCommand } from '../../src/server/commands/define'
import {
	byParam,
	type CommandPolicy,
	definePlugin,
	type PolicyEntry,
	PUBLIC_READ,
	policyHook,
	type RestContext,
	restRoute,
	serveRoutes,
} from '../../src/server/plugin/api'
import { getTestInstance } from '../helpers'

/**
 * What a route or command without a policy entry meets (docs/policy.md): the types refuse it, and
 * what slips past them (a plain Elysia route, a definition cast, a plugin loaded by path) stops the
 * start with one line naming it.
 */
const startFails = async (plugin: ReturnType<typeof definePlugin>) => {
	const err = await getTestInstance(
		{ TDLIB_BACKEND: 'tdlib' },
		{ plugins: [...builtInPlugins, plugin], listen: false },
	).then(
		async (i) => {
			await i.stop()
			return undefined
		},
		(e: unknown) => e as Error,
	)
	if (!err) throw new Error('the app started')
	return err.message
}

describe('a route or command without its policy entry', () => {
	it('stops the start: a plain route with no entry, named with its plugin', async () => {
		const bare = definePlugin({ id: 'bare', build: () => new Elysia().get('/api/bare/', () => 'open') })
		expect(await startFails(bare)).toBe(
			"route GET /api/bare/ of plugin 'bare' has no policy entry (docs/policy.md)",
		)
		const hooked = definePlugin({
			id: 'hooked',
			build: () => new Elysia().get('/api/hooked/', () => 'open', policyHook(PUBLIC_READ)),
		})
		const started = await getTestInstance({ TDLIB_BACKEND: 'tdlib' }, { plugins: [hooked], listen: false })
		await started.stop()
	})

	it('stops the start: a definition whose entry is broken, or names a kind its guard cannot find', async () => {
		const broken = restRoute({
			method: 'get',
			path: '/api/broken/:id/',
			policy: { action: 'read', resource: 'userbot' } as PolicyEntry,
			response: { 200: v.string() },
			detail: { operationId: 'broken', summary: 'Broken', tags: ['x'] },
			handle: () => 'x',
		})
		const plugin = (route: typeof broken) =>
			definePlugin({
				id: 'broken',
				build: (ctx) => serveRoutes(ctx as RestContext, [route], ctx.auth.guard()),
			})
		expect(await startFails(plugin(broken))).toBe(
			'route GET /api/broken/:id/ does not say how its userbot is found (docs/policy.md)',
		)
		const unlocated = {
			...broken,
			policy: { action: 'read', resource: 'webhook', find: [byParam()] } as PolicyEntry,
		}
		expect(await startFails(plugin(unlocated))).toBe(
			'route GET /api/broken/:id/ finds a webhook that its guard cannot locate (docs/policy.md)',
		)
	})

	it('stops the start: a command whose entry is broken', async () => {
		const plugin = definePlugin({
			id: 'loose',
			commands: [
				defineCommand({
					name: 'loose_command',
					// The types refuse it; a plugin loaded by path is not type-checked.
					policy: { action: 'write', permission: 'userbots.manage' } as unknown as CommandPolicy,
					methods: [],
					input: v.looseObject({}),
					run: async () => null,
				}),
			],
		})
		expect(await startFails(plugin)).toBe(
			"command 'loose_command' of group 'loose' names a permission, which only a manage action takes (docs/policy.md)",
		)
	})
})
