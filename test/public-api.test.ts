import { describe, expect, it } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import * as publicApi from 'userbot-gateway/plugin'

const REPO = resolve(import.meta.dir, '..')

/** Every `from '...'` of the TypeScript files under `dir`, with the file it is in. */
function importsUnder(dir: string): Array<{ file: string; from: string }> {
	const out: Array<{ file: string; from: string }> = []
	for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
		if (!entry.isFile() || !entry.name.endsWith('.ts')) continue
		const file = join(entry.parentPath, entry.name)
		for (const m of readFileSync(file, 'utf8').matchAll(/\bfrom '([^']+)'/g))
			out.push({ file, from: m[1] ?? '' })
	}
	return out
}

describe('userbot-gateway/plugin', () => {
	it('is what every command group imports of the core: none reaches into src/', () => {
		const groups = readdirSync(join(REPO, 'plugins')).filter((d) => d.startsWith('commands-'))
		expect(groups.length).toBe(7)
		const dirs = [...groups.map((g) => join(REPO, 'plugins', g)), join(REPO, 'examples', 'chats')]
		const reaching = dirs
			.flatMap((d) => importsUnder(d))
			.filter(({ from }) => from.includes('/src/') || from.startsWith('../..'))
			.map(({ file, from }) => `${file.slice(REPO.length + 1)}: ${from}`)
		expect(reaching).toEqual([])
	})

	it('exports what a command group is written with', () => {
		for (const name of [
			'definePlugin',
			'defineCommand',
			'defineCommandGroup',
			'CommandError',
			'fields',
			'requiredInt',
			'requiredString',
			'optionalBool',
			'documented',
			'tdSlot',
			'tdObjectField',
			'checkTdObject',
			'formattedText',
			'TdError',
			'wordError',
		]) {
			expect(publicApi).toHaveProperty(name)
		}
	})
})
