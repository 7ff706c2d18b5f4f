import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError } from './error'

/** The secrets of a deployment: given in the environment, or generated once into DATA_DIR. */
export interface Secrets {
	jwtSecret: string
	sessionSecret: string
	/** Encrypts the per-userbot TDLib database keys at rest. */
	dataKey: string
}

export function secretsFromEnv(jwtSecret: string | undefined, sessionSecret: string | undefined): Secrets {
	if (!jwtSecret || !sessionSecret)
		throw new ConfigError(
			`${jwtSecret ? 'SESSION_SECRET' : 'JWT_SECRET'}: must be set here (no DATA_DIR to keep it in)`,
		)
	return { jwtSecret, sessionSecret, dataKey: '' }
}

/** Secrets not given in the environment are generated once into the data folder (mode 0600). */
export function loadSecrets(dataDir: string, given: Partial<Secrets>): Secrets {
	const file = join(dataDir, 'secrets.json')
	try {
		return readOrGenerateSecrets(file, dataDir, given)
	} catch (err) {
		const why =
			err instanceof SyntaxError ? 'it is not valid JSON' : String((err as Error).message).split('\n')[0]
		throw new ConfigError(`DATA_DIR: cannot keep the generated secrets in ${file}: ${why}`)
	}
}

function readOrGenerateSecrets(
	file: string,
	dataDir: string,
	given: Partial<Secrets>,
	retry = true,
): Secrets {
	let stored: Partial<Secrets> = {}
	const existed = existsSync(file)
	if (existed) stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>
	const random = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
	const merged: Secrets = {
		jwtSecret: given.jwtSecret ?? stored.jwtSecret ?? random(),
		sessionSecret: given.sessionSecret ?? stored.sessionSecret ?? random(),
		dataKey: stored.dataKey ?? random(),
	}
	const toStore = {
		jwtSecret: given.jwtSecret ? stored.jwtSecret : merged.jwtSecret,
		sessionSecret: given.sessionSecret ? stored.sessionSecret : merged.sessionSecret,
		dataKey: merged.dataKey,
	}
	if (JSON.stringify(toStore) !== JSON.stringify(stored)) {
		mkdirSync(dataDir, { recursive: true, mode: 0o700 })
		// Replicas on one DATA_DIR start together: the first to publish a new file wins, the others
		// read its secrets (tokens one signs, the others accept).
		if (!publishSecrets(file, JSON.stringify(toStore), !existed) && retry)
			return readOrGenerateSecrets(file, dataDir, given, false)
	}
	return merged
}

/**
 * Writes the file whole or not at all (a temporary file, then a link or a rename): a reader never
 * sees half of it. A new file is linked, which fails when another process made it first (false).
 */
export function publishSecrets(file: string, content: string, fresh: boolean): boolean {
	const tmp = `${file}.${process.pid}.${Date.now()}.tmp`
	writeFileSync(tmp, content, { mode: 0o600 })
	try {
		if (!fresh) renameSync(tmp, file)
		else linkSync(tmp, file)
		return true
	} catch (err) {
		if (fresh && (err as NodeJS.ErrnoException).code === 'EEXIST') return false
		throw err
	} finally {
		rmSync(tmp, { force: true })
	}
}
