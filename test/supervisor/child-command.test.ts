import { afterEach, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { childCommand } from '../../src/runtime/supervisor/child-process'

const dirs: string[] = []
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

describe('childCommand (from source)', () => {
	it("is Bun running the server's own entry with the hidden supervisor-child subcommand", () => {
		expect(childCommand()).toEqual([
			process.execPath,
			'--no-env-file',
			join(import.meta.dir, '..', '..', 'src', 'entry', 'main.ts'),
			'supervisor-child',
		])
	})

	it('starts a child that does not read the .env of its working folder', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'ubg-child-'))
		dirs.push(dir)
		// Everything the child needs, in `.env` only: read, it would go on to the (missing) socket.
		await Bun.write(
			join(dir, '.env'),
			`SUPERVISOR_TRANSPORT=socket\nSUPERVISOR_SOCKET=${join(dir, 'no.sock')}\n`,
		)
		const proc = Bun.spawn(childCommand(), {
			cwd: dir,
			env: { PATH: process.env.PATH ?? '' },
			stdout: 'pipe',
			stderr: 'pipe',
		})
		expect(await proc.exited).toBe(1)
		expect(await new Response(proc.stderr).text()).toBe(
			'supervisor child failed to start: environment: SUPERVISOR_TRANSPORT is missing or invalid\n',
		)
	})
})
