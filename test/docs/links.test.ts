import { describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { anchors, checkTree, slug } from './links'

const ROOT = resolve(import.meta.dir, '../..')

describe('the documentation', () => {
	it('stands alone: no reference outside the repository, every link and docs/ anchor leads somewhere', () => {
		const problems = checkTree(ROOT).map((p) => `${p.file}:${p.line}: ${p.problem}`)
		expect(problems).toEqual([])
	})

	it('keeps the README to what a newcomer needs: the two commands first, under 400 lines', () => {
		const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
		expect(readme.split('\n').length).toBeLessThan(400)
		const firstBlock = readme.slice(
			readme.indexOf('```sh'),
			readme.indexOf('```', readme.indexOf('```sh') + 5),
		)
		expect(firstBlock).toContain('npm start')
		expect(firstBlock).toContain('npm test')
		expect(readme).toContain('## Where to read on')
	})
})

describe('the link checker', () => {
	it("makes GitHub's anchors", () => {
		expect(slug('REST: accounts (family A)')).toBe('rest-accounts-family-a')
		expect(slug("The protocol's commands")).toBe('the-protocols-commands')
		expect(slug('`change_2fa_password`')).toBe('change_2fa_password')
		expect([...anchors('# A\n## B\n```\n## not a heading\n```\n## B\n')]).toEqual(['a', 'b', 'b-1'])
	})

	it('finds what it is for: a missing file, a missing anchor, a spec outside, a numbered section', () => {
		const root = mkdtempSync(join(tmpdir(), 'ubg-links-'))
		try {
			mkdirSync(join(root, 'docs'))
			mkdirSync(join(root, 'src'))
			writeFileSync(
				join(root, 'docs', 'a.md'),
				'# A\n\n## Here\n\n[ok](#here) [ok](b.md#there) [bad](#nowhere)\n',
			)
			writeFileSync(join(root, 'docs', 'b.md'), '# B\n\n## There\n\n[bad](c.md) ```[not a link](c.md)```\n')
			writeFileSync(
				join(root, 'src', 'x.ts'),
				[
					'// see docs/a.md#here and docs/b.md',
					'// see docs/a.md#gone',
					'// see docs/gone.md',
					`// see ${['..', 'shared', 'spec'].join('/')}`,
					`// as ${['ws', 'commands'].join('-')} \u00a77 says`,
					'// RFC 9110 \u00a715.5.2 is fine',
				].join('\n'),
			)
			const found = checkTree(root).map((p) => `${p.file}:${p.line}: ${p.problem}`)
			expect(found).toEqual([
				'docs/a.md:5: link #nowhere: no heading with that anchor here',
				'docs/b.md:5: link c.md: no such file',
				`src/x.ts:4: names ${['..', 'shared'].join('/')}, which is outside the repository: point to docs/ instead`,
				'src/x.ts:5: names a numbered section of a spec outside the repository',
				'src/x.ts:2: docs/a.md#gone: no heading with that anchor',
				'src/x.ts:3: docs/gone.md: no such file',
			])
		} finally {
			rmSync(root, { recursive: true, force: true })
		}
	})
})
