import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { Parser } from '@asyncapi/parser'
import { generateDocs } from '../../src/entry/generate-docs'

/**
 * `npm run lint:api` (CI) and test/lint/api-documents.test.ts: the OpenAPI document the server
 * serves through Spectral (`spectral:oas`, .spectral.yaml) and Redocly (`recommended`,
 * redocly.yaml), the AsyncAPI document through the AsyncAPI parser. The linters come pinned from
 * bun.lock and run offline: the rulesets are built in, Redocly's telemetry and update check are off.
 * docs/api-lint.md says which warnings stay and why.
 */
export const ROOT = resolve(import.meta.dir, '..', '..')

export interface Finding {
	tool: 'spectral' | 'redocly' | 'asyncapi'
	severity: 'error' | 'warning' | 'info' | 'hint'
	rule: string
	where: string
	message: string
}

const SEVERITY = ['error', 'warning', 'info', 'hint'] as const

/** Settings that keep the linters on this machine (and quiet). */
export const OFFLINE_ENV: Record<string, string> = {
	REDOCLY_TELEMETRY: 'off',
	REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
	NO_COLOR: '1',
}

/**
 * The documents as served: the built-in app's (docs/openapi.json), and the same with family B's
 * routes, which only an app with MAIN_SERVER_URL serves (never called while linting).
 */
export async function servedDocuments(): Promise<{ openapi: Record<string, string>; asyncapi: string }> {
	const plain = (await generateDocs()).files
	const withFamilyB = (await generateDocs({ MAIN_SERVER_URL: 'http://127.0.0.1:9' })).files
	const compact = (text: string | undefined) => JSON.stringify(JSON.parse(text ?? 'null'))
	return {
		openapi: {
			'openapi.json': compact(plain['docs/openapi.json']),
			'openapi-family-b.json': compact(withFamilyB['docs/openapi.json']),
		},
		asyncapi: compact(plain['docs/asyncapi.json']),
	}
}

async function run(args: string[]): Promise<string> {
	const proc = Bun.spawn([process.execPath, ...args], {
		cwd: ROOT,
		env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? ROOT, ...OFFLINE_ENV },
		stdin: 'ignore',
		stdout: 'pipe',
		stderr: 'pipe',
	})
	const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()])
	await proc.exited
	if (!out.trim().startsWith('[') && !out.trim().startsWith('{'))
		throw new Error(`${args[0]} printed no report (exit ${proc.exitCode}): ${err.slice(0, 2000)}`)
	return out.slice(out.search(/[[{]/))
}

export async function spectral(file: string): Promise<Finding[]> {
	const out = await run([
		'node_modules/@stoplight/spectral-cli/dist/index.js',
		'lint',
		'--ruleset',
		'.spectral.yaml',
		'--format',
		'json',
		'--fail-severity',
		'hint',
		file,
	])
	const results = JSON.parse(out) as Array<{
		code: string
		severity: number
		path: string[]
		message: string
	}>
	return results.map((r) => ({
		tool: 'spectral',
		severity: SEVERITY[r.severity] ?? 'error',
		rule: String(r.code),
		where: r.path.join('.'),
		message: r.message,
	}))
}

export async function redocly(file: string): Promise<Finding[]> {
	const out = await run([
		'node_modules/@redocly/cli/bin/cli.js',
		'lint',
		'--config',
		'redocly.yaml',
		'--format',
		'json',
		file,
	])
	const report = JSON.parse(out) as {
		problems: Array<{
			ruleId: string
			severity: string
			message: string
			location: Array<{ pointer?: string }>
		}>
	}
	return report.problems.map((p) => ({
		tool: 'redocly',
		severity: p.severity === 'warn' ? 'warning' : p.severity === 'error' ? 'error' : 'info',
		rule: p.ruleId,
		where: p.location[0]?.pointer ?? '',
		message: p.message,
	}))
}

export async function asyncapi(text: string): Promise<Finding[]> {
	const diagnostics = await new Parser().validate(text)
	return diagnostics.map((d) => ({
		tool: 'asyncapi',
		severity: SEVERITY[d.severity] ?? 'error',
		rule: String(d.code),
		where: d.path.join('.'),
		message: d.message,
	}))
}

/** Every finding on the served documents, by document; written to `dir` to be linted as files. */
export async function lintServedDocuments(dir: string): Promise<Record<string, Finding[]>> {
	const docs = await servedDocuments()
	mkdirSync(dir, { recursive: true })
	const findings: Record<string, Finding[]> = {}
	for (const [name, text] of Object.entries(docs.openapi)) {
		const file = join(dir, name)
		writeFileSync(file, text)
		findings[name] = [...(await spectral(file)), ...(await redocly(file))]
	}
	findings['asyncapi.json'] = await asyncapi(docs.asyncapi)
	return findings
}

/**
 * The warnings that stay (docs/api-lint.md): no contact or licence is ours to name for a
 * self-hosted service, and the documentation, console and /health routes answer no 4xx.
 */
export const ACCEPTED_WARNINGS = new Set([
	'spectral info-contact',
	'redocly info-license',
	'redocly operation-4xx-response',
])

export const isBlocking = (f: Finding) =>
	f.severity === 'error' || (f.severity === 'warning' && !ACCEPTED_WARNINGS.has(`${f.tool} ${f.rule}`))

if (import.meta.main) {
	const findings = await lintServedDocuments(join(ROOT, '.tmp', 'api-documents'))
	let blocking = 0
	for (const [name, list] of Object.entries(findings)) {
		const bad = list.filter(isBlocking)
		blocking += bad.length
		const counts = SEVERITY.map((s) => `${list.filter((f) => f.severity === s).length} ${s}s`).join(', ')
		process.stdout.write(`${name}: ${counts} (${bad.length} blocking)\n`)
		for (const f of list)
			process.stdout.write(`  ${f.severity} ${f.tool} ${f.rule} ${f.where}: ${f.message}\n`)
	}
	process.exit(blocking === 0 ? 0 : 1)
}
