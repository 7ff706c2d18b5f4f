import { existsSync } from 'node:fs'
import { join } from 'node:path'
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
	// Messages framed over a socket or Bun's IPC: the supervisor's channel to its child and the
	// emulator's cloud to its clients both ride them, so they stand below both.
	...folder('src/supervisor', 'src/transport', {
		'transport.ts': 'index.ts',
		'transport-socket.ts': 'socket.ts',
		'transport-ipc.ts': 'ipc.ts',
	}),
	// The core's and the built-in plugins' route data, composed where the app is: the API keys' routes
	// and the plugins stand above the OpenAPI document, which is handed the data it describes.
	...folder('src/openapi', 'src/app', {
		'core-routes.ts': 'core-routes.ts',
		'operator-contract.ts': 'operator-contract.ts',
		'rest-api.ts': 'rest-api.ts',
	}),
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

/**
 * Where code runs (docs/architecture.md#the-folders), applied after the moves above: the HTTP
 * process's parts under `src/server/`, the Telegram runtime (supervisor parent and child, the bus,
 * the flood governor, TDLib) under `src/runtime/`, the emulator of the Telegram cloud under
 * `src/emulator/`, what every process and the browser share under `src/common/`, and the
 * WebSocket client library inside its package. Folder by folder, so a file a branch adds to one of
 * these folders later moves with it on the next run. Longest prefix first: the emulator leaves
 * `src/telegram/` before the rest of it does.
 */
const SERVER_PARTS = [
	'audit',
	'auth',
	'backup',
	'catalog',
	'commands',
	'config',
	'console',
	'gateway',
	'http',
	'keys',
	'metrics',
	'net',
	'openapi',
	'operations',
	'plugin',
	'policy',
	'updates',
	'userbots',
]
const EMULATOR_FOLDER = 'src/telegram/emulator/'
export const WHERE_IT_RUNS: readonly (readonly [string, string])[] = [
	[EMULATOR_FOLDER, 'src/emulator/'],
	['src/telegram/', 'src/runtime/telegram/'],
	...['supervisor', 'bus', 'flood'].map((d) => [`src/${d}/`, `src/runtime/${d}/`] as const),
	...SERVER_PARTS.map((d) => [`src/${d}/`, `src/server/${d}/`] as const),
	['src/context.ts', 'src/server/context.ts'],
	// The composition root: `createApp` puts the server's parts, the runtime and the plugins together,
	// so it stands above them all, beside what starts it (the test server, the fleet of gateways).
	['src/server/app/', 'src/app/'],
	['src/server/testing/', 'src/app/testing/'],
	['src/server/fleet/', 'src/fleet/'],
	['src/testing/', 'src/app/testing/'],
	['src/util/', 'src/common/util/'],
	['src/wire/', 'src/common/wire/'],
	// The line transports (Transport, socket, IPC): the runtime's supervisor and the emulator's cloud both ride them.
	['src/transport/', 'src/common/transport/'],
	['src/client/', 'packages/client/src/ws/'],
]

const swap = (path: string, pairs: readonly (readonly [string, string])[]): string | null => {
	for (const [a, b] of pairs)
		if (path === a || (a.endsWith('/') && path.startsWith(a))) return b + path.slice(a.length)
	return null
}

/** The repository's files as git lists them (tracked, and new ones it does not ignore). */
function repositoryFiles(): string[] {
	const root = join(import.meta.dir, '..', '..')
	const run = Bun.spawnSync(['git', 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
		cwd: root,
		stdout: 'pipe',
	})
	return run.stdout
		.toString()
		.split('\0')
		.filter((p) => p !== '' && existsSync(join(root, p)))
}

/**
 * One entry per file in an old folder (to do) or in a new one (done, kept so that an import a
 * merged branch wrote against the old path is set right).
 */
function whereItRuns(files: readonly string[]): Move[] {
	const back = WHERE_IT_RUNS.map(([a, b]) => [b, a] as const)
	const moves: Move[] = []
	for (const f of files) {
		const to = swap(f, WHERE_IT_RUNS)
		if (to !== null) moves.push({ from: f, to })
		const from = to === null ? swap(f, back) : null
		if (from !== null) moves.push({ from, to: f })
	}
	// The emulator's files first, so that its folder is found before src/telegram's.
	const late = (m: Move) => Number(!m.from.startsWith(EMULATOR_FOLDER))
	return moves.sort((x, y) => late(x) - late(y))
}

const files = repositoryFiles()
const present = new Set(files)
/** The first moves, where one is still to do (a branch brought an old path back), on to where it runs. */
const first = [...SRC, ...PARTS, ...EMULATOR]
	.filter((m) => present.has(m.from))
	.map((m) => ({ from: m.from, to: swap(m.to, WHERE_IT_RUNS) ?? m.to }))

export const LAYOUT: readonly Move[] = [...first, ...whereItRuns(files)]

/**
 * Folders whose loose files the layout places one by one: a file there that is neither moved by
 * LAYOUT nor listed as staying (a branch merged after the map was written added it) is reported,
 * so that a line can be added before the layout is applied.
 */
export const LOOSE_FOLDERS: readonly { folder: string; stays: readonly string[] }[] = [
	// AppContext: nearly every part imports it, so it stands below them all, apart from app/.
	{ folder: 'src', stays: [] },
	{
		folder: 'src/emulator',
		stays: [
			'index.ts',
			'client.ts',
			'world.ts',
			'records.ts',
			'test-requests.ts',
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
