import { timingSafeEqual } from 'node:crypto'
import { argon2id } from 'hash-wasm'

/**
 * argon2id where `Bun.password` does not exist (the REST families on Deno): hash-wasm's
 * WebAssembly argon2, in the PHC string format Bun writes, so a hash made by either runtime
 * verifies on the other. Verification recomputes the raw hash and compares it in constant time
 * (hash-wasm's own `argon2Verify` compares strings with `===`).
 */
export interface Argon2Params {
	memoryCost: number
	timeCost: number
}

const HASH_BYTES = 32
const SALT_BYTES = 16
const PHC =
	/^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,2})\$([A-Za-z0-9+/]{11,})\$([A-Za-z0-9+/]{22,})$/

export async function argon2idHash(password: string, params: Argon2Params): Promise<string> {
	return argon2id({
		password,
		salt: crypto.getRandomValues(new Uint8Array(SALT_BYTES)),
		parallelism: 1,
		iterations: params.timeCost,
		memorySize: params.memoryCost,
		hashLength: HASH_BYTES,
		outputType: 'encoded',
	})
}

/** False for a wrong password and for anything that is not an argon2id PHC string. */
export async function argon2idVerify(password: string, encoded: string): Promise<boolean> {
	const m = PHC.exec(encoded)
	if (!m) return false
	const expected = Buffer.from(m[5]!, 'base64')
	const actual = await argon2id({
		password,
		salt: Buffer.from(m[4]!, 'base64'),
		memorySize: Number(m[1]),
		iterations: Number(m[2]),
		parallelism: Number(m[3]),
		hashLength: expected.length,
		outputType: 'binary',
	})
	return actual.length === expected.length && timingSafeEqual(actual, expected)
}
