import type { Move } from './tree'

/**
 * The folder layout (docs/architecture.md#the-folders): old path -> new path, file by file. `npm run
 * layout` applies what is not applied yet; an entry whose file is gone is reported and skipped. To
 * move something else, add a line here and run it again. A folder holds files of one height: what
 * its files import lies below all of them, and what imports them lies above, so that no folder
 * imports a folder that imports it back.
 */

const folder = (from: string, to: string, names: Record<string, string>): Move[] =>
	Object.entries(names).map(([a, b]) => ({ from: `${from}/${a}`, to: `${to}/${b}` }))

/** The loose files of src/: entries, platforms, the app, the plugin machinery, the configuration, utilities. */
const SRC: Move[] = [
	// What a command runs; nothing imports them.
	...folder('src', 'src/entry', {
		'main.ts': 'main.ts',
		'demo.ts': 'demo.ts',
		'migrate.ts': 'migrate.ts',
		'generate-docs.ts': 'generate-docs.ts',
		'cli.ts': 'cli.ts',
	}),
	// How the app runs on each runtime: imported by the entries, the fleet and the public API.
	...folder('src', 'src/platform', {
		'serve.ts': 'bun/serve.ts',
		'deno.ts': 'deno/main.ts',
		'deno-serve.ts': 'deno/serve.ts',
		'deno-command.ts': 'deno/command.ts',
		'edge.ts': 'edge/main.ts',
		'edge/app.ts': 'edge/app.ts',
		'dotenv.ts': 'dotenv.ts',
		'shutdown.ts': 'shutdown.ts',
	}),
	// `createApp` and what only it assembles; a shard's app beside the whole one.
	{ from: 'src/app.ts', to: 'src/app/index.ts' },
	{ from: 'src/operator.ts', to: 'src/app/operator.ts' },
	{ from: 'src/bus/shard-app.ts', to: 'src/app/shard.ts' },
	// What a plugin is, what it imports, how the app loads it.
	...folder('src', 'src/plugin', {
		'plugin-api.ts': 'api.ts',
		'plugin-rest.ts': 'rest.ts',
		'plugin.ts': 'define.ts',
		'plugin-settings.ts': 'settings.ts',
		'plugin-loader.ts': 'loader.ts',
		'route-owners.ts': 'route-owners.ts',
	}),
	// The environment, checked; `PLUGINS`' specifiers are read there.
	{ from: 'src/config.ts', to: 'src/config/index.ts' },
	{ from: 'src/config-error.ts', to: 'src/config/error.ts' },
	{ from: 'src/config-read.ts', to: 'src/config/read.ts' },
	{ from: 'src/config-secrets.ts', to: 'src/config/secrets.ts' },
	{ from: 'src/config-settings.ts', to: 'src/config/settings.ts' },
	{ from: 'src/plugin-specifier.ts', to: 'src/config/plugin-specifier.ts' },
	...folder('src', 'src/util', {
		'text.ts': 'text.ts',
		'keyed-queue.ts': 'keyed-queue.ts',
		'logger.ts': 'logger.ts',
		'startup-error.ts': 'startup-error.ts',
	}),
]

/** Files of a part that its importers' height puts in another part. */
const PARTS: Move[] = [
	// The audit line of a command the gateway ran: only the gateway's dispatch writes it.
	{ from: 'src/audit/commands.ts', to: 'src/gateway/audit.ts' },
	// A command's uploaded files: what td-request lets a command hand to TDLib.
	{ from: 'src/gateway/uploads.ts', to: 'src/commands/uploads.ts' },
	// The flood governor around a runtime, beside the runtime it wraps (flood/ holds its parts).
	{ from: 'src/flood/governed-runtime.ts', to: 'src/supervisor/governed-runtime.ts' },
]

/** The emulator's domains; the files of EMULATOR_STAYS and cloud/ stay at its top. */
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

export const LAYOUT: readonly Move[] = [...SRC, ...PARTS, ...EMULATOR]

/**
 * Folders whose loose files the layout places one by one: a file there that is neither moved by
 * LAYOUT nor listed as staying (a branch merged after the map was written added it) is reported,
 * so that a line can be added before the layout is applied.
 */
export const LOOSE_FOLDERS: readonly { folder: string; stays: readonly string[] }[] = [
	// AppContext: nearly every part imports it, so it stands below them all, apart from app/.
	{ folder: 'src', stays: ['context.ts'] },
	{
		folder: 'src/telegram/emulator',
		stays: [
			'index.ts',
			'client.ts',
			'world.ts',
			'session.ts',
			'objects.ts',
			'proxies.ts',
			'faults.ts',
			'flood.ts',
		],
	},
]

/** The codemod's own files: their old paths are the point, never rewritten. */
export const LAYOUT_OWN_FILES = [
	'scripts/layout.ts',
	'scripts/layout/map.ts',
	'scripts/layout/rewrite.ts',
	'scripts/layout/run.ts',
	'scripts/layout/tree.ts',
	'test/scripts/layout.test.ts',
]
