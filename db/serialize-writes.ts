import type { Client, InArgs, InStatement, Transaction, TransactionMode } from '@libsql/client'

/**
 * The embedded libSQL driver is synchronous: when one pooled connection holds the write lock, a
 * second writer's busy wait blocks the very event loop the first needs to commit, so it can only
 * fail with SQLITE_BUSY. Writes of this process therefore take turns here (a write transaction
 * holds its turn until commit or rollback); reads never wait, since WAL lets them run beside a
 * writer. The busy timeout still covers writers in other processes.
 *
 * So inside `db.transaction(async (tx) => ...)`, write through `tx` only: a write through the outer
 * `db` would wait for the turn its own transaction holds, for ever.
 */
const READ_ONLY = /^\s*(select|with\s[\s\S]*?\)\s*select|pragma\s+\w+\s*(;|$)|explain)\b/i

export function serializeWrites(client: Client): Client {
	let tail: Promise<void> = Promise.resolve()
	/** Waits for the turn; resolves with the function that ends it. */
	const turn = async (): Promise<() => void> => {
		const previous = tail
		let release = () => {}
		tail = new Promise<void>((resolve) => {
			release = resolve
		})
		await previous
		return release
	}
	const inTurn = async <T>(fn: () => Promise<T>): Promise<T> => {
		const release = await turn()
		try {
			return await fn()
		} finally {
			release()
		}
	}
	const isRead = (stmt: InStatement) => READ_ONLY.test(typeof stmt === 'string' ? stmt : stmt.sql)

	const transaction = async (mode: TransactionMode = 'write'): Promise<Transaction> => {
		if (mode === 'read') return client.transaction(mode)
		const release = await turn()
		let tx: Transaction
		try {
			tx = await client.transaction(mode)
		} catch (err) {
			release()
			throw err
		}
		// The turn ends once commit or rollback settles (or the transaction is closed); ending twice is harmless.
		const settle = <R>(p: Promise<R>): Promise<R> => p.finally(release)
		return new Proxy(tx, {
			get(target, prop, receiver) {
				if (prop === 'commit') return () => settle(target.commit())
				if (prop === 'rollback') return () => settle(target.rollback())
				if (prop === 'close')
					return () => {
						target.close()
						release()
					}
				const value = Reflect.get(target, prop, receiver)
				return typeof value === 'function' ? value.bind(target) : value
			},
		})
	}

	return new Proxy(client, {
		get(target, prop, receiver) {
			switch (prop) {
				case 'execute':
					return (stmt: InStatement, args?: InArgs) => {
						const run = () => (typeof stmt === 'string' ? target.execute(stmt, args) : target.execute(stmt))
						return isRead(stmt) ? run() : inTurn(run)
					}
				case 'batch':
					return (stmts: InStatement[], mode?: TransactionMode) => inTurn(() => target.batch(stmts, mode))
				case 'migrate':
					return (stmts: InStatement[]) => inTurn(() => target.migrate(stmts))
				case 'executeMultiple':
					return (sql: string) => inTurn(() => target.executeMultiple(sql))
				case 'transaction':
					return transaction
				default: {
					const value = Reflect.get(target, prop, receiver)
					return typeof value === 'function' ? value.bind(target) : value
				}
			}
		},
	})
}
