import type { Move } from './tree'

/**
 * The folder layout (docs/architecture.md#the-folders): old path -> new path, file by file. `npm run
 * layout` applies what is not applied yet; an entry whose file is gone is reported and skipped. To
 * move something else, add a line here and run it again.
 */

const folder = (from: string, to: string, names: Record<string, string>): Move[] =>
	Object.entries(names).map(([a, b]) => ({ from: `${from}/${a}`, to: `${to}/${b}` }))

/** The loose files of src/: entries, platforms, the plugin machinery, small utilities. */
const SRC: Move[] = [
	...folder('src', 'src/entry', {
		'main.ts': 'main.ts',
		'cli.ts': 'cli.ts',
		'serve.ts': 'serve.ts',
		'demo.ts': 'demo.ts',
		'migrate.ts': 'migrate.ts',
		'generate-docs.ts': 'generate-docs.ts',
		'shutdown.ts': 'shutdown.ts',
	}),
	...folder('src', 'src/platform', {
		'deno.ts': 'deno/main.ts',
		'deno-serve.ts': 'deno/serve.ts',
		'deno-command.ts': 'deno/command.ts',
		'edge.ts': 'edge/main.ts',
		'edge/app.ts': 'edge/app.ts',
		'dotenv.ts': 'dotenv.ts',
	}),
	...folder('src', 'src/plugin', {
		'plugin-api.ts': 'api.ts',
		'plugin-rest.ts': 'rest.ts',
		'plugin.ts': 'define.ts',
		'plugin-loader.ts': 'loader.ts',
		'plugin-specifier.ts': 'specifier.ts',
		'route-owners.ts': 'route-owners.ts',
	}),
	...folder('src', 'src/util', {
		'text.ts': 'text.ts',
		'keyed-queue.ts': 'keyed-queue.ts',
		'logger.ts': 'logger.ts',
		'startup-error.ts': 'startup-error.ts',
	}),
	{ from: 'src/operator.ts', to: 'src/operator/routes.ts' },
]

/** The emulator's domains; index.ts, client.ts, world.ts, session.ts, objects.ts, proxies, faults, flood and cloud/ stay. */
const EMULATOR: Move[] = folder('src/telegram/emulator', 'src/telegram/emulator', {
	'auth.ts': 'auth/index.ts',
	'password.ts': 'auth/password.ts',
	'password-store.ts': 'auth/password-store.ts',
	'sessions.ts': 'auth/sessions.ts',
	'people.ts': 'people/index.ts',
	'privacy.ts': 'people/privacy.ts',
	'block-lists.ts': 'people/block-lists.ts',
	'chats.ts': 'chats/index.ts',
	'public-chats.ts': 'chats/public.ts',
	'slow-mode.ts': 'chats/slow-mode.ts',
	'read-state.ts': 'chats/read-state.ts',
	'messages.ts': 'messages/index.ts',
	'content.ts': 'messages/content.ts',
	'history.ts': 'messages/history.ts',
	'send-failures.ts': 'messages/send-failures.ts',
	'service-messages.ts': 'messages/service.ts',
	'members.ts': 'members/index.ts',
	'members-add.ts': 'members/add.ts',
	'members-admin.ts': 'members/admin.ts',
	'members-create.ts': 'members/create.ts',
	'members-list.ts': 'members/list.ts',
	'members-log.ts': 'members/log.ts',
	'members-objects.ts': 'members/objects.ts',
	'members-rights.ts': 'members/rights.ts',
	'members-status.ts': 'members/status.ts',
	'member-records.ts': 'members/records.ts',
	'invites.ts': 'invites/index.ts',
	'invite-joins.ts': 'invites/joins.ts',
	'invite-records.ts': 'invites/records.ts',
	'files.ts': 'files/index.ts',
	'downloads.ts': 'files/downloads.ts',
	'seed.ts': 'seed/index.ts',
	'seed-read-side.ts': 'seed/read-side.ts',
})

export const LAYOUT: readonly Move[] = [...SRC, ...EMULATOR]

/** The codemod's own files: their old paths are the point, never rewritten. */
export const LAYOUT_OWN_FILES = [
	'scripts/layout.ts',
	'scripts/layout/map.ts',
	'scripts/layout/rewrite.ts',
	'scripts/layout/run.ts',
	'scripts/layout/tree.ts',
	'test/scripts/layout.test.ts',
]
