import {
	createCipheriv,
	createDecipheriv,
	createHmac,
	createSecretKey,
	hkdfSync,
	type KeyObject,
	randomBytes,
} from 'node:crypto'

/**
 * Every message on the bus is sealed with a key that only the deployment's gateways and shards
 * have: derived (HKDF-SHA256) from the data key of `DATA_DIR/secrets.json`, which every process of
 * one bus must share. A NATS credential alone (stolen, or a server anyone can reach) reads nothing
 * and forges nothing:
 * - the body is encrypted with AES-256-GCM: userbot database keys, log-in codes, passwords and
 *   message texts never cross the bus in clear;
 * - the subject it was sent to, the sender, a per-sender counter and the time are authenticated
 *   with it (the GCM tag covers them): a message moved to another subject, or changed, fails;
 * - a message seen again (the same sender and counter), or too old, is refused (`Replay`).
 *
 * The layout: `UB1`, sender length (1 byte), sender (UTF-8), counter (8 bytes), time in ms (8
 * bytes), IV (12 bytes), ciphertext, tag (16 bytes). Everything before the ciphertext is the
 * additional data, with the subject.
 */
const MAGIC = [0x55, 0x42, 0x31] as const
const IV_BYTES = 12
const TAG_BYTES = 16

/** How far a message's time may be from the receiver's clock (or from when the stream stored it). */
export const REPLAY_WINDOW_MS = 120_000

export type Refusal = 'malformed' | 'forged' | 'replayed' | 'stale'

export type Opened =
	| { ok: true; body: Uint8Array; sender: string; counter: number; at: number }
	| { ok: false; reason: Refusal }

const encoder = new TextEncoder()
const ZERO = Buffer.from([0])

/** The additional data: the subject, a zero byte, the header. */
const aad = (subject: string, header: Uint8Array) => Buffer.concat([Buffer.from(subject), ZERO, header])

export class BusKey {
	private constructor(
		private readonly key: KeyObject,
		/** Tells nothing of the key: an HMAC keyed by it over a constant. */
		readonly fingerprint: string,
	) {}

	static fromDataKey(dataKey: string): BusKey {
		const raw = Buffer.from(hkdfSync('sha256', dataKey, 'userbot-gateway bus', 'message key v1', 32))
		const fingerprint = createHmac('sha256', raw).update('ubg bus key fingerprint').digest('base64url')
		return new BusKey(createSecretKey(raw), fingerprint)
	}

	/** A sealer for one sender: its name on the bus, and a counter of its own. */
	sealer(sender: string): Sealer {
		return new Sealer(this.key, `${sender}#${randomBytes(6).toString('base64url')}`)
	}

	/** Checks and decrypts; says why not, in one word, when it cannot. */
	open(subject: string, data: Uint8Array): Opened {
		if (data.length < MAGIC.length + 1 + 16 + IV_BYTES + TAG_BYTES) return { ok: false, reason: 'malformed' }
		if (data[0] !== MAGIC[0] || data[1] !== MAGIC[1] || data[2] !== MAGIC[2])
			return { ok: false, reason: 'malformed' }
		const senderLength = data[3] as number
		const headerEnd = 4 + senderLength + 16 + IV_BYTES
		if (data.length < headerEnd + TAG_BYTES) return { ok: false, reason: 'malformed' }
		const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
		try {
			const decipher = createDecipheriv(
				'aes-256-gcm',
				this.key,
				buf.subarray(headerEnd - IV_BYTES, headerEnd),
			)
			decipher.setAAD(aad(subject, buf.subarray(0, headerEnd)))
			decipher.setAuthTag(buf.subarray(buf.length - TAG_BYTES))
			const body = decipher.update(buf.subarray(headerEnd, buf.length - TAG_BYTES))
			decipher.final()
			return {
				ok: true,
				body,
				sender: buf.toString('utf8', 4, 4 + senderLength),
				counter: Number(buf.readBigUInt64BE(4 + senderLength)),
				at: Number(buf.readBigUInt64BE(4 + senderLength + 8)),
			}
		} catch {
			return { ok: false, reason: 'forged' }
		}
	}
}

/** Random IVs drawn from a pool: one call to the system's generator per 512 messages. */
class IvPool {
	private pool = Buffer.alloc(0)
	private at = 0

	next(): Buffer {
		if (this.at + IV_BYTES > this.pool.length) {
			this.pool = randomBytes(IV_BYTES * 512)
			this.at = 0
		}
		const iv = this.pool.subarray(this.at, this.at + IV_BYTES)
		this.at += IV_BYTES
		return iv
	}
}

export class Sealer {
	private counter = 0n
	private readonly senderBytes: Uint8Array
	private readonly ivs = new IvPool()

	constructor(
		private readonly key: KeyObject,
		readonly sender: string,
	) {
		this.senderBytes = encoder.encode(sender).subarray(0, 255)
	}

	seal(subject: string, body: string | Uint8Array, now = Date.now()): Uint8Array {
		const n = this.senderBytes.length
		const plain = typeof body === 'string' ? Buffer.from(body) : body
		const out = Buffer.allocUnsafe(4 + n + 16 + IV_BYTES + plain.length + TAG_BYTES)
		out.set(MAGIC, 0)
		out[3] = n
		out.set(this.senderBytes, 4)
		this.counter++
		out.writeBigUInt64BE(this.counter, 4 + n)
		out.writeBigUInt64BE(BigInt(Math.max(0, Math.floor(now))), 4 + n + 8)
		const headerEnd = 4 + n + 16 + IV_BYTES
		const iv = this.ivs.next()
		out.set(iv, headerEnd - IV_BYTES)
		const cipher = createCipheriv('aes-256-gcm', this.key, iv)
		cipher.setAAD(aad(subject, out.subarray(0, headerEnd)))
		out.set(cipher.update(plain), headerEnd)
		cipher.final()
		out.set(cipher.getAuthTag(), out.length - TAG_BYTES)
		return out
	}
}

/**
 * Which messages were seen, per sender: a counter at or below one already seen within the last
 * `WINDOW` counters is a replay, one older than that too. Senders silent for longer than the
 * replay window are forgotten: whatever they sent is too old by its time anyway.
 */
const WINDOW = 4096

export class ReplayGuard {
	private readonly senders = new Map<string, { max: number; seen: Set<number>; last: number }>()
	private lastSweep = 0

	constructor(private readonly now: () => number = Date.now) {}

	/** `sender` is `name#instance` and `counter` its counter, as `BusKey.open` gives them. */
	check(who: string, counter: number, at: number, storedAt?: number): Refusal | undefined {
		const now = this.now()
		const reference = storedAt ?? now
		if (Math.abs(reference - at) > REPLAY_WINDOW_MS) return 'stale'
		// Stored messages (the stream, the buckets) are read again by design: their time is the check.
		if (storedAt !== undefined) return undefined
		this.sweep(now)
		let state = this.senders.get(who)
		if (!state) {
			state = { max: 0, seen: new Set(), last: now }
			this.senders.set(who, state)
		}
		state.last = now
		if (counter <= state.max - WINDOW || state.seen.has(counter)) return 'replayed'
		state.seen.add(counter)
		if (counter > state.max) state.max = counter
		if (state.seen.size > 2 * WINDOW)
			for (const c of state.seen) if (c <= state.max - WINDOW) state.seen.delete(c)
		return undefined
	}

	private sweep(now: number) {
		if (now - this.lastSweep < REPLAY_WINDOW_MS) return
		this.lastSweep = now
		for (const [who, s] of this.senders) if (now - s.last > REPLAY_WINDOW_MS) this.senders.delete(who)
	}
}
