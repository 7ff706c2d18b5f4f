import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { KV } from '@nats-io/kv'
import { BUS_KEY_KEY, SECRETS_KEY, STORAGE_KEY } from './subjects'

/**
 * Every gateway and shard on one bus must see one `DATA_DIR/tdlib`: a userbot's TDLib database
 * moves with its ownership only because every shard opens the same folder, and a gateway writes
 * uploads where the shard's TDLib reads them. A shard on a machine without the shared folder would
 * open an empty one and find its userbots logged out, so it must not start.
 *
 * The folder carries an id (`.storage-id`, written once); the bus keeps the id of the storage its
 * leases are about (the leases bucket, key `storage`). A process whose folder has no id, or another,
 * refuses to start. On a new bus the first process to join gives it its folder's id.
 */
export class StorageMismatchError extends Error {
	override name = 'StorageMismatchError'
}

export async function checkSharedStorage(
	kv: KV,
	dataDir: string,
	opts: { waitMs?: number } = {},
): Promise<string> {
	const dir = join(dataDir, 'tdlib')
	const file = join(dir, '.storage-id')
	// A shard may not give the bus its id (its permissions): it waits for a gateway to have done so.
	const expected =
		opts.waitMs === undefined ? await stored(kv, STORAGE_KEY) : await waitFor(kv, STORAGE_KEY, opts.waitMs)
	const local = readId(file)
	if (expected !== undefined) {
		if (local === expected) return local
		throw mismatch(dir, local === undefined ? 'it has no .storage-id' : 'its .storage-id is another')
	}
	if (opts.waitMs !== undefined)
		throw new StorageMismatchError('no gateway has given the bus its storage id: start a gateway first')
	// A new bus: this folder's id, made now if it has none (of two first starts, one file wins).
	mkdirSync(dir, { recursive: true, mode: 0o700 })
	let id = local
	if (id === undefined) {
		try {
			writeFileSync(file, crypto.randomUUID(), { flag: 'wx', mode: 0o600 })
		} catch (err) {
			if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
		}
		id = readId(file) as string
	}
	try {
		await kv.create(STORAGE_KEY, id)
		return id
	} catch {
		// Another process gave the bus its id first: it must be this one.
		const now = await kv.get(STORAGE_KEY)
		if (now?.operation === 'PUT' && now.string() === id) return id
		throw mismatch(dir, 'its .storage-id is another')
	}
}

function readId(file: string): string | undefined {
	try {
		const text = readFileSync(file, 'utf8').trim()
		return /^[0-9a-f-]{36}$/.test(text) ? text : undefined
	} catch {
		return undefined
	}
}

function mismatch(dir: string, why: string) {
	return new StorageMismatchError(
		`${dir} is not the storage the other processes on the bus use (${why}): every gateway and shard of one bus must share one DATA_DIR/tdlib`,
	)
}

export interface SharedSecrets {
	jwtSecret: string
	sessionSecret: string
	dataKey: string
}

/**
 * Gateways of one bus must sign and seal alike: a token signed on one is checked on another, and a
 * userbot's database key sealed by one is opened by whichever starts it next. Each gateway compares
 * a fingerprint of its secrets (an HMAC keyed by them over a constant: it tells nothing of them)
 * with the one the bus keeps, given by the first gateway, and refuses to start on another.
 */
export async function checkSharedSecrets(kv: KV, secrets: SharedSecrets, busKey: string): Promise<void> {
	await agreeOn(kv, SECRETS_KEY, await fingerprintOf(secrets), secretsMismatch)
	// What the shards compare theirs with (they hold only the data key, not the other two).
	await agreeOn(kv, BUS_KEY_KEY, busKey, secretsMismatch)
}

/** The first to come writes its value; everyone after must have the same. */
async function agreeOn(kv: KV, key: string, value: string, mismatch: () => Error): Promise<void> {
	const entry = await kv.get(key)
	if (entry?.operation === 'PUT') {
		if (entry.string() === value) return
		throw mismatch()
	}
	try {
		await kv.create(key, value)
	} catch {
		const now = await kv.get(key)
		if (now?.operation !== 'PUT' || now.string() !== value) throw mismatch()
	}
}

/**
 * A shard seals and opens the bus's messages with a key derived from the data key of its
 * `DATA_DIR/secrets.json`: it must be the gateways' (compared by fingerprint, given by a gateway).
 */
export async function checkBusKey(kv: KV, fingerprint: string, waitMs: number): Promise<void> {
	const expected = await waitFor(kv, BUS_KEY_KEY, waitMs)
	if (expected === undefined)
		throw new SecretsMismatchError('no gateway has joined the bus yet: start a gateway first')
	if (expected !== fingerprint)
		throw new SecretsMismatchError(
			'the data key (DATA_DIR/secrets.json) differs from the gateways’ on the bus: copy DATA_DIR/secrets.json from a gateway to every shard',
		)
}

async function stored(kv: KV, key: string): Promise<string | undefined> {
	const entry = await kv.get(key)
	return entry?.operation === 'PUT' ? entry.string() : undefined
}

async function waitFor(kv: KV, key: string, ms: number): Promise<string | undefined> {
	const end = performance.now() + ms
	for (;;) {
		const value = await stored(kv, key)
		if (value !== undefined || performance.now() > end) return value
		await Bun.sleep(200)
	}
}

async function fingerprintOf(s: SharedSecrets): Promise<string> {
	const material = new TextEncoder().encode(JSON.stringify([s.jwtSecret, s.sessionSecret, s.dataKey]))
	const key = await crypto.subtle.importKey('raw', material, { name: 'HMAC', hash: 'SHA-256' }, false, [
		'sign',
	])
	const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode('ubg gateway secrets'))
	return Buffer.from(mac).toString('base64url')
}

export class SecretsMismatchError extends Error {
	override name = 'SecretsMismatchError'
}

function secretsMismatch() {
	return new SecretsMismatchError(
		'JWT_SECRET, SESSION_SECRET or the data key (DATA_DIR/secrets.json) differ from those of the other gateways on the bus: every gateway of one bus must have the same',
	)
}
