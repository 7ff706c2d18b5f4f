import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createLogger } from '../common/util/logger'
import { toAsyncApi } from '../server/catalog/asyncapi'
import type { Catalog } from '../server/catalog/catalog'
import { commandReference, withReference } from '../server/catalog/markdown'
import type { JsonSchema } from '../server/commands/fields'
import { loadConfig } from '../server/config'
import { openApiDocument } from '../server/openapi/document'
import { operationsOf, policyTable, withPolicyTable } from '../server/policy/table'

/**
 * `npm run docs`: the built-in app's catalog written out: `docs/commands.json`, `docs/asyncapi.json`,
 * `docs/openapi.json`, the command reference in `docs/commands.md` and the policy table in
 * `docs/policy.md`. `test/catalog/docs.test.ts` makes the same files in memory and fails when the
 * committed ones differ.
 */
export const ROOT = resolve(import.meta.dir, '..', '..')

/** The document whose command reference, between its markers, the catalog writes. */
export const REFERENCE_FILE = 'docs/commands.md'
/** The document whose policy table, between its markers, the routes' and commands' entries write. */
export const POLICY_FILE = 'docs/policy.md'

/**
 * The app that serves every route of this repository, and whose policy table docs/policy.md shows
 * (and the matrix test tries): the emulator (with its test controls), family B beside family A, and
 * `/metrics` on the app's port.
 */
export const WIDEST_ENV = {
	TDLIB_BACKEND: 'emulator',
	EMULATOR_CONTROL: 'true',
	MAIN_SERVER_URL: 'http://127.0.0.1:9',
	METRICS_TOKEN: 'policy-table-metrics-token-0123',
} as const

export interface GeneratedDocs {
	files: Record<string, string>
}

/**
 * The built-in plugins' app, without a Telegram runtime (nothing is started), and its documents;
 * `env` adds settings (the API documents' linter also documents family B, with MAIN_SERVER_URL).
 */
export async function generateDocs(env: Record<string, string> = {}): Promise<GeneratedDocs> {
	const dataDir = mkdtempSync(join(tmpdir(), 'ubg-docs-'))
	try {
		const config = loadConfig({ ...env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', TDLIB_BACKEND: 'tdlib' })
		const { builtInPlugins, createApp } = await import('../app')
		const { coreRouteData } = await import('../app/core-routes')
		const app = await createApp(config, { logger: createLogger('silent') })
		try {
			const openapi = openApiDocument(app.app, coreRouteData, builtInPlugins)
			const files = documents(app.catalog, openapi, readFileSync(join(ROOT, REFERENCE_FILE), 'utf8'))
			return { files: { ...files, [POLICY_FILE]: await policyDocument() } }
		} finally {
			await app.close()
		}
	} finally {
		rmSync(dataDir, { recursive: true, force: true })
	}
}

/** docs/policy.md with the table of the widest app's routes and commands. */
async function policyDocument(): Promise<string> {
	const dataDir = mkdtempSync(join(tmpdir(), 'ubg-policy-'))
	try {
		const config = loadConfig({ ...WIDEST_ENV, DATA_DIR: dataDir, LOG_LEVEL: 'silent' })
		const { createApp } = await import('../app')
		const app = await createApp(config, { logger: createLogger('silent') })
		try {
			const ops = operationsOf({ routes: app.app.routes, commands: app.commands.values() })
			return withPolicyTable(readFileSync(join(ROOT, POLICY_FILE), 'utf8'), policyTable(ops))
		} finally {
			await app.close()
		}
	} finally {
		rmSync(dataDir, { recursive: true, force: true })
	}
}

const pretty = (x: unknown) => `${JSON.stringify(x, null, '\t')}\n`

export function documents(catalog: Catalog, openapi: JsonSchema, reference: string): Record<string, string> {
	const asyncapi: JsonSchema = toAsyncApi(catalog)
	return {
		'docs/commands.json': pretty(catalog),
		'docs/asyncapi.json': pretty(asyncapi),
		'docs/openapi.json': pretty(openapi),
		[REFERENCE_FILE]: withReference(reference, commandReference(catalog)),
	}
}

if (import.meta.main) {
	const { files } = await generateDocs()
	await mkdir(join(ROOT, 'docs'), { recursive: true })
	for (const [path, text] of Object.entries(files)) writeFileSync(join(ROOT, path), text)
	process.stdout.write(`written: ${Object.keys(files).join(', ')}\n`)
}
