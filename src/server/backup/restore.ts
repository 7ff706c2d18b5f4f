import { copyFileSync, existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { createClient } from '@libsql/client'
import * as v from 'valibot'
import { isEmptyOrMissing, type Outcome, reasonOf } from './backup'
import { copyTree } from './copy-tree'
import { locate } from './locations'
import { MANIFEST, ManifestSchema } from './manifest'

const fail = (line: string): Outcome => ({ ok: false, line: `restore: ${line}` })

/**
 * `restore PATH`: puts a backup back into an empty (or new) `DATA_DIR`, never over a deployment's
 * data. Everything is copied into a sibling folder first, the database checked there, and that
 * folder renamed to `DATA_DIR`: a rename onto a folder that is no longer empty fails, so a server
 * or a second restore that got there first is never overwritten.
 */
export async function restore(env: Record<string, string | undefined>, source: string): Promise<Outcome> {
	const located = locate(env, 'restore')
	if (!located.ok) return { ok: false, line: located.line }
	const { dataDir, databaseFile } = located.where
	const from = resolve(source)
	const manifest = readManifest(from)
	if (manifest === undefined) return fail(`${from} is not a backup of this service (no valid ${MANIFEST})`)
	for (const name of ['app.db', 'secrets.json']) {
		if (!existsSync(join(from, name))) return fail(`${from} has no ${name}`)
	}
	if (!isEmptyOrMissing(dataDir)) {
		return fail(`DATA_DIR ${dataDir} is not empty: restore only into a new or empty folder`)
	}
	const inside = relative(dataDir, databaseFile)
	const databaseInside = !inside.startsWith('..') && !inside.startsWith('/')
	if (!databaseInside && existsSync(databaseFile)) {
		return fail(`the database file ${databaseFile} exists: restore never writes over one`)
	}
	mkdirSync(dirname(dataDir), { recursive: true })
	const staging = `${dataDir}.restoring-${process.pid}`
	const stagedDatabase = databaseInside ? join(staging, inside) : `${databaseFile}.restoring-${process.pid}`
	let linked = false
	try {
		rmSync(staging, { recursive: true, force: true })
		mkdirSync(staging, { recursive: true, mode: 0o700 })
		copyFileSync(join(from, 'secrets.json'), join(staging, 'secrets.json'))
		const files = existsSync(join(from, 'tdlib')) ? copyTree(join(from, 'tdlib'), join(staging, 'tdlib')) : 0
		mkdirSync(dirname(stagedDatabase), { recursive: true, mode: 0o700 })
		copyFileSync(join(from, 'app.db'), stagedDatabase)
		const check = await quickCheck(stagedDatabase)
		if (check !== 'ok') return fail(`the backup's database is damaged (${check})`)
		if (!databaseInside) {
			// A link fails when the file exists by now: never over another database.
			linkSync(stagedDatabase, databaseFile)
			linked = true
		}
		renameSync(staging, dataDir)
		return {
			ok: true,
			line: `restored: ${from} into ${dataDir} (${manifest.userbots.length} userbots, ${files} TDLib files)`,
		}
	} catch (err) {
		if (linked) rmSync(databaseFile, { force: true })
		const code = (err as NodeJS.ErrnoException).code
		if (code === 'ENOTEMPTY' || code === 'EEXIST') {
			return fail(`DATA_DIR ${dataDir} or the database file was filled meanwhile: nothing was restored`)
		}
		return fail(reasonOf(err))
	} finally {
		rmSync(staging, { recursive: true, force: true })
		if (!databaseInside) rmSync(stagedDatabase, { force: true })
	}
}

function readManifest(from: string) {
	try {
		const parsed = v.safeParse(ManifestSchema, JSON.parse(readFileSync(join(from, MANIFEST), 'utf8')))
		return parsed.success ? parsed.output : undefined
	} catch {
		return undefined
	}
}

async function quickCheck(file: string): Promise<string> {
	const client = createClient({ url: `file:${file}` })
	try {
		const result = await client.execute('PRAGMA quick_check')
		return String(result.rows[0]?.[0] ?? 'no answer')
	} finally {
		client.close()
	}
}
