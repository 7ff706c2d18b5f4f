import { describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CHILD_BUN_FLAGS } from '../../src/runtime/supervisor/child-process'

const printSecret = async (flags: readonly string[], cwd: string) => {
	const proc = Bun.spawn(
		[process.execPath, ...flags, '-e', 'console.log(process.env.JWT_SECRET ?? "unset")'],
		{
			cwd,
			env: { PATH: process.env.PATH ?? '' },
			stdout: 'pipe',
		},
	)
	await proc.exited
	return (await new Response(proc.stdout).text()).trim()
}

describe('the supervisor child', () => {
	it('is started so that the .env file of the working folder does not reach it', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'ubg-env-'))
		try {
			await Bun.write(join(dir, '.env'), 'JWT_SECRET=a-secret-the-child-must-not-see-000000\n')
			// Without the flags Bun hands the secret to any process it starts there.
			expect(await printSecret([], dir)).toBe('a-secret-the-child-must-not-see-000000')
			expect(await printSecret(CHILD_BUN_FLAGS, dir)).toBe('unset')
		} finally {
			rmSync(dir, { recursive: true, force: true })
		}
	})
})
