/**
 * Password hashing: argon2id with OWASP's minimum (19 MiB, 2 passes). The hasher is an object so a
 * test can count its calls (Django's test_authentication_timing): an unknown email must cost the
 * same `verify` as a known one. Bun's native argon2 serves `npm start` and the binary; on Deno the
 * same hashes are made and checked by argon2-portable.ts.
 */
export interface PasswordHasher {
	hash(password: string): Promise<string>
	verify(password: string, hash: string): Promise<boolean>
	/** True when the stored hash was made with other parameters and should be replaced at login. */
	needsRehash(hash: string): boolean
}

const MEMORY_COST = 19456
const TIME_COST = 2

export function createPasswordHasher(
	runtime: 'bun' | 'portable' = hasBun() ? 'bun' : 'portable',
): PasswordHasher {
	const prefix = `$argon2id$v=19$m=${MEMORY_COST},t=${TIME_COST},`
	const needsRehash = (hash: string) => !hash.startsWith(prefix)
	if (runtime === 'portable') {
		const portable = import('./argon2-portable')
		return {
			hash: async (password) =>
				(await portable).argon2idHash(password, { memoryCost: MEMORY_COST, timeCost: TIME_COST }),
			verify: async (password, hash) => (await portable).argon2idVerify(password, hash),
			needsRehash,
		}
	}
	return {
		hash: (password) =>
			Bun.password.hash(password, { algorithm: 'argon2id', memoryCost: MEMORY_COST, timeCost: TIME_COST }),
		verify: async (password, hash) => {
			try {
				return await Bun.password.verify(password, hash)
			} catch {
				return false
			}
		},
		needsRehash,
	}
}

const hasBun = () => typeof Bun !== 'undefined'

/** Verified against when the email is unknown, so both paths do the same argon2id work. */
export const DUMMY_HASH =
	'$argon2id$v=19$m=19456,t=2,p=1$Gl3it3eDktX3xPkgn1Ee9qPYHR85t/XMH4l8bkE/fvY$bMOywffLguW6SiEZNj7iJvayn/WFPVVaumznRvvFRag'
