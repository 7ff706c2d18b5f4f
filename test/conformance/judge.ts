import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { createLogger } from '../../src/common/util/logger'
import type { RecordedRequest } from '../../src/runtime/supervisor/request-log'
import { TD_SCHEMA } from '../../src/runtime/telegram/schema'
import { createParseOnlyClient } from '../../src/runtime/telegram/tdlib'
import { loadConfig } from '../../src/server/config'
import { TESTED_METHODS } from '../plugins/commands-td-invoke/methods'

/**
 * `npm run conformance`: real TDLib judges every TDLib request the test suite made a command send.
 *
 * `npm test` records each new shape of request that crossed the supervisor protocol, with the
 * command that sent it (TDLIB_REQUEST_LOG, `.tmp/tdlib-requests.jsonl`). Here each one is replayed to
 * a real TDLib 1.8.65 client that never receives its parameters: it parses every request and runs
 * none, and never goes on the network. A request its JSON parser refuses is a request the emulator
 * let through and real TDLib would not: that fails the run, with a table of what and why.
 *
 * It also lists the TDLib methods a command declares (the mapping's methods) that no test made it
 * send: the goal is none. `td_invoke` is judged as every command is: its requests replayed, and its
 * methods those of the allow-list its tests run with (TESTED_METHODS), each of which a test must send. `--self-test` adds one deliberately malformed request, which must be the
 * one and only refusal, so the judge itself is shown to work.
 */

const LOG = process.env.TDLIB_REQUEST_LOG ?? '.tmp/tdlib-requests.jsonl'
const selfTest = process.argv.includes('--self-test')

function readRecord(path: string): RecordedRequest[] {
	if (!existsSync(path)) {
		process.stderr.write(`conformance: no record at ${path}; run npm test first\n`)
		process.exit(2)
	}
	const byKey = new Map<string, RecordedRequest>()
	for (const line of readFileSync(path, 'utf8').split('\n')) {
		if (!line.trim()) continue
		const r = JSON.parse(line) as RecordedRequest
		byKey.set(`${r.label}\u0000${r.shape}`, r)
	}
	return [...byKey.values()]
}

/** The commands the full app serves, and the TDLib methods each declares. */
async function declaredMethods(): Promise<Map<string, readonly string[]>> {
	const dir = mkdtempSync(join(tmpdir(), 'ubg-conformance-'))
	try {
		// td_invoke declares the methods its tests allow (off, it declares none and nothing is covered).
		const config = loadConfig({
			DATA_DIR: dir,
			TDLIB_BACKEND: 'emulator',
			LOG_LEVEL: 'silent',
			PORT: '0',
			TD_INVOKE_METHODS: TESTED_METHODS,
		})
		const app = await createApp(config, { logger: createLogger('silent') })
		try {
			return new Map([...app.commands].map(([name, entry]) => [name, entry.command.methods]))
		} finally {
			await app.close()
		}
	} finally {
		rmSync(dir, { recursive: true, force: true })
	}
}

function table(rows: string[][]): string {
	const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
	return rows
		.map((r) =>
			r
				.map((cell, i) => cell.padEnd(widths[i]!))
				.join('  ')
				.trimEnd(),
		)
		.join('\n')
}

const records = readRecord(LOG)
if (selfTest) {
	records.push({
		label: 'self-test',
		method: 'getChat',
		shape: 'self-test',
		request: { _: 'getChat', chat_id: 'not a chat id' } as { _: string },
	})
}
const client = createParseOnlyClient()
const verdicts = await client.judge(records.map((r) => r.request))
await client.close()

const refused = records
	.map((r, i) => ({ r, verdict: verdicts[i]! }))
	.filter((x): x is { r: RecordedRequest; verdict: { refused: string } } => x.verdict !== 'parsed')
const methods = new Set(records.map((r) => r.method))
process.stdout.write(
	`conformance: ${records.length} requests of ${methods.size} TDLib methods parsed by TDLib ${TD_SCHEMA.version}; ${refused.length} refused\n`,
)
if (refused.length > 0) {
	process.stdout.write(
		`${table([['command', 'method', "TDLib's message"], ...refused.map(({ r, verdict }) => [r.label, r.method, verdict.refused])])}\n`,
	)
}

// Coverage: what each command declares against what the tests made it send.
const declared = await declaredMethods()
const sent = new Map<string, Set<string>>()
for (const r of records) {
	const set = sent.get(r.label) ?? new Set<string>()
	set.add(r.method)
	sent.set(r.label, set)
}
const uncovered: string[][] = []
let declaredCount = 0
for (const [command, list] of declared) {
	for (const method of list) {
		declaredCount++
		if (!sent.get(command)?.has(method)) uncovered.push([command, method])
	}
}
process.stdout.write(
	`coverage: ${declaredCount - uncovered.length} of ${declaredCount} (command, TDLib method) pairs of ${declared.size} commands sent by a test; ${uncovered.length} never sent\n`,
)
if (uncovered.length > 0) process.stdout.write(`${table([['command', 'method never sent'], ...uncovered])}\n`)

if (selfTest) {
	const ok = refused.length === 1 && refused[0]!.r.label === 'self-test'
	process.stdout.write(
		ok
			? 'self-test: the malformed request, and only it, was refused\n'
			: 'self-test FAILED: expected exactly the one malformed request to be refused\n',
	)
	process.exit(ok ? 0 : 1)
}
process.exit(refused.length > 0 || uncovered.length > 0 ? 1 : 0)
