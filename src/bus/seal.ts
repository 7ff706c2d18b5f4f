import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto'

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
	| { ok: true; body: Uint8Array; sender: string; at: number }
	| { ok: false; reason: Refusal }

const encoder = new TextEncoder()

export class BusKey {
	private constructor(
		private readonly key: Buffer,
		/** Tells nothing of the key: an HMAC keyed by it over a constant. */
		readonly fingerprint: string,
	) {}

	static fromDataKey(dataKey: string): BusKey {
		const key = Buffer.from(hkdfSync('sha256', dataKey, 'userbot-gateway bus', 'message key v1', 32))
		const fingerprint = createHmac('sha256', key).update('ubg bus key fingerprint').digest('base64url')
		return new BusKey(key, fingerprint)
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
		const iv = buf.subarray(headerEnd - IV_BYTES, headerEnd)
		const tag = buf.subarray(buf.length - TAG_BYTES)
		try {
			const decipher = createDecipheriv('aes-256-gcm', this.key, iv)
			decipher.setAAD(Buffer.concat([encoder.encode(subject), Buffer.from([0]), buf.subarray(0, headerEnd)]))
			decipher.setAuthTag(tag)
			const body = Buffer.concat([
				decipher.update(buf.subarray(headerEnd, buf.length - TAG_BYTES)),
				decipher.final(),
			])
			const sender = buf.subarray(4, 4 + senderLength).toString('utf8')
			const at = Number(buf.readBigUInt64BE(4 + senderLength + 8))
			return { ok: true, body, sender: `${sender}@${buf.readBigUInt64BE(4 + senderLength)}`, at }
		} catch {
			return { ok: false, reason: 'forged' }
		}
	}
}

export class Sealer {
	private counter = 0n

	constructor(
		private readonly key: Buffer,
		readonly sender: string,
	) {}

	seal(subject: string, body: string | Uint8Array, now = Date.now()): Uint8Array {
		const senderBytes = encoder.encode(this.sender).subarray(0, 255)
		const header = Buffer.alloc(4 + senderBytes.length + 16 + IV_BYTES)
		header.set(MAGIC, 0)
		header[3] = senderBytes.length
		header.set(senderBytes, 4)
		this.counter++
		header.writeBigUInt64BE(this.counter, 4 + senderBytes.length)
		header.writeBigUInt64BE(BigInt(Math.max(0, Math.floor(now))), 4 + senderBytes.length + 8)
		const iv = randomBytes(IV_BYTES)
		header.set(iv, header.length - IV_BYTES)
		const cipher = createCipheriv('aes-256-gcm', this.key, iv)
		cipher.setAAD(Buffer.concat([encoder.encode(subject), Buffer.from([0]), header]))
		const plain = typeof body === 'string' ? encoder.encode(body) : body
		return Buffer.concat([header, cipher.update(plain), cipher.final(), cipher.getAuthTag()])
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

	/** `sender` is `name#instance@counter`, as `BusKey.open` gives it. */
	check(sender: string, at: number, storedAt?: number): Refusal | undefined {
		const now = this.now()
		const reference = storedAt ?? now
		if (Math.abs(reference - at) > REPLAY_WINDOW_MS) return 'stale'
		// Stored messages (the stream, the buckets) are read again by design: their time is the check.
		if (storedAt !== undefined) return undefined
		const split = sender.lastIndexOf('@')
		const who = sender.slice(0, split)
		const counter = Number(sender.slice(split + 1))
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
