/**
 * The writer thread's statements (writer-thread.ts): store.ts's, with `?` for their parameters, the
 * multi-row ones made for each number of rows.
 */

/** Values of one event in `rows`, of one delivery inserted, of one outcome. */
export const EVENT_WIDTH = 7
export const DELIVERY_WIDTH = 8
export const OUTCOME_WIDTH = 7

/**
 * Rows per statement at most. The events, deliveries and outcomes go in as the parameters of
 * multi-row statements (`VALUES (?, ...), (?, ...)`), each prepared once per number of rows, those
 * numbers powers of two: a batch of n rows is one statement per bit of n (above CHUNK, full ones
 * first). Each row as a JSON text read back by `json_each` and `->>` cost the thread about a third
 * more: SQLite parsed each row's text again for each of its fields.
 */
const CHUNK = 256

/** The sizes of the statements a batch of `n` rows is written with, in order (powers of two, largest first). */
export function chunkSizes(n: number): number[] {
	const sizes: number[] = []
	let left = n
	while (left > 0) {
		let size = CHUNK
		while (size > left) size >>= 1
		sizes.push(size)
		left -= size
	}
	return sizes
}

const rowsOf = (width: number, count: number) =>
	Array.from({ length: count }, () => `(${Array.from({ length: width }, () => '?').join(', ')})`).join(', ')

/** The multi-row statements, by their number of rows. */
export const MANY = {
	insertEvents: (n: number) => `
		INSERT INTO webhook_event (company_id, userbot_id, seq, type, data, dedupe_key, created_at)
		VALUES ${rowsOf(EVENT_WIDTH, n)}
		ON CONFLICT DO NOTHING
		RETURNING id, dedupe_key`,
	// Only what the insert does not know already comes back: a new delivery's message id is `msg_`
	// and its event, it has no attempts.
	insertDeliveries: (n: number) => `
		INSERT INTO webhook_delivery
			(endpoint_id, event_id, userbot_id, message_id, next_at, created_at, lease_owner, lease_until)
		VALUES ${rowsOf(DELIVERY_WIDTH, n)}
		RETURNING id, endpoint_id, event_id, lease_owner IS NOT NULL AS leased`,
	// Written only while the lease is still this process's (the owner is the last parameter).
	settle: (n: number) => `
		WITH j (id, status, next_at, at, code, body, error) AS (VALUES ${rowsOf(OUTCOME_WIDTH, n)})
		UPDATE webhook_delivery SET
			status = j.status, attempts = attempts + 1, next_at = j.next_at,
			lease_owner = NULL, lease_until = NULL,
			first_attempt_at = coalesce(first_attempt_at, j.at), last_at = j.at,
			last_code = j.code, last_body = j.body, last_error = j.error
		FROM j
		WHERE webhook_delivery.id = j.id AND webhook_delivery.lease_owner = ?
		RETURNING webhook_delivery.id AS id`,
}

export const SQL = {
	busyPairs: `
		SELECT p.key AS i FROM json_each(?) p
		WHERE EXISTS (
			SELECT 1 FROM webhook_delivery d INDEXED BY webhook_delivery_pending
			WHERE d.status = 'pending' AND d.endpoint_id = p.value ->> 0 AND d.userbot_id = p.value ->> 1
				AND d.id > p.value ->> 2
		)`,
	endpoints: `
		SELECT id, url, secret, previous_secret AS previousSecret, previous_secret_until AS previousSecretUntil,
			failing_since AS failingSince
		FROM webhook_endpoint WHERE id IN (SELECT value FROM json_each(?))`,
}
