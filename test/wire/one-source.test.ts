import { describe, expect, it } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import * as wire from '../../src/common/wire'
import { successEvent } from '../../src/common/wire/envelope'

/**
 * The WebSocket protocol is written once, in src/common/wire/: gateway, update hub, state pushes, plugins,
 * the console and the typed client import it. A copy of a close code, a close reason, an envelope
 * type or an error string the gateway writes, written anywhere else, fails here, as does an import
 * into src/common/wire/ that a browser lacks.
 */
const REPO = join(import.meta.dir, '..', '..')
const ROOTS = ['src', 'plugins', 'packages/client/src', 'examples']

function sources(): Array<{ path: string; code: string }> {
	const out: Array<{ path: string; code: string }> = []
	for (const root of ROOTS) {
		for (const entry of readdirSync(join(REPO, root), { recursive: true, withFileTypes: true })) {
			if (!entry.isFile() || !/\.(ts|tsx|js|mjs)$/.test(entry.name)) continue
			const path = relative(REPO, join(entry.parentPath, entry.name))
			if (path.includes('/generated/')) continue
			out.push({ path, code: readFileSync(join(REPO, path), 'utf8') })
		}
	}
	return out
}

/** The text without comments (a comment may name a code in words: docs, not a copy). */
const withoutComments = (code: string) =>
	code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1')

const inWire = (path: string) => path.startsWith('src/common/wire/')

describe('the wire module is the one source of the protocol', () => {
	const files = sources()

	it('finds the sources it scans (gateway, hub, client)', () => {
		const paths = files.map((f) => f.path)
		for (const p of [
			'src/server/gateway/index.ts',
			'src/server/updates/hub.ts',
			'packages/client/src/ws/ws-client.ts',
			'src/common/wire/close.ts',
		])
			expect(paths).toContain(p)
	})

	it('names every close reason and envelope type in src/common/wire/ only', () => {
		const literals = [
			wire.REASON_REVOKED,
			wire.REASON_EXPIRED,
			wire.REASON_SHUTTING_DOWN,
			wire.REASON_SLOW_CONSUMER,
			wire.REASON_TOO_BIG,
			wire.REASON_INVALID_UTF8,
			wire.CHAT_UPDATE,
			wire.RESYNC,
		]
		const found: string[] = []
		for (const { path, code } of files) {
			if (inWire(path)) continue
			const text = withoutComments(code)
			for (const literal of literals) {
				if (text.includes(`'${literal}'`) || text.includes(`"${literal}"`) || text.includes(`\`${literal}\``))
					found.push(`${path}: ${literal}`)
			}
		}
		expect(found).toEqual([])
	})

	it("writes the gateway's error strings in src/common/wire/ only", () => {
		// `timeout` is also a runtime error's code and a command's outcome, names rather than copies.
		const strings = [...Object.values(wire.GatewayErrors), ...Object.values(wire.UpgradeRefusals)].filter(
			(s) => s !== wire.GatewayErrors.TIMEOUT,
		)
		expect(strings.length).toBeGreaterThan(20)
		// Tests pin the wording word for word on purpose (docs/protocol.md): they are no copies.
		const isTest = (path: string) => /(^|\/)test\/|\.test\.ts$/.test(path)
		const found: string[] = []
		for (const { path, code } of files) {
			if (inWire(path) || isTest(path)) continue
			const text = withoutComments(code)
			for (const s of strings) {
				if (text.includes(`'${s}'`) || text.includes(`"${s}"`) || text.includes(`\`${s}\``))
					found.push(`${path}: ${s}`)
			}
		}
		expect(found).toEqual([])
	})

	it('writes the close codes as numbers in src/common/wire/ only', () => {
		const codes = [
			wire.CLOSE_GOING_AWAY,
			wire.CLOSE_POLICY,
			wire.CLOSE_INVALID_UTF8,
			wire.CLOSE_TOO_BIG,
			wire.CLOSE_SLOW_CONSUMER,
		]
		// Where a socket is closed or its close read: the emulator's user 1001 is no close code.
		const protocolSide = /^(src\/(gateway|updates|client|console-ui|public|userbots)|packages\/client\/src)\//
		const found: string[] = []
		for (const { path, code } of files) {
			if (!protocolSide.test(path)) continue
			const text = withoutComments(code)
			for (const c of codes) if (new RegExp(`\\b${c}\\b`).test(text)) found.push(`${path}: ${c}`)
		}
		expect(found).toEqual([])
	})

	it('imports nothing a browser lacks (only its own files)', () => {
		const foreign: string[] = []
		for (const { path, code } of files) {
			if (!inWire(path)) continue
			for (const m of code.matchAll(/from\s+'([^']+)'/g))
				if (!m[1]!.startsWith('./')) foreign.push(`${path}: ${m[1]}`)
		}
		expect(foreign).toEqual([])
	})

	it('builds a push exactly as the gateway builds a reply, without a request id', () => {
		expect(JSON.stringify(successEvent(5, 'authorization_state', { authorization_state: 'x' }))).toBe(
			wire.successReply(5, 'authorization_state', { authorization_state: 'x' }, undefined),
		)
		expect(successEvent(null, 'webhook_disabled', { webhook_id: 1 })).toEqual({
			type: 'chat_update',
			payload: { type: 'webhook_disabled', result: { webhook_id: 1 } },
		})
	})
})
