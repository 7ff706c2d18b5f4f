/**
 * Runs the tasks of one key one after another, tasks of different keys side by side; keys with
 * nothing pending take no memory. For a limit that is checked and then written (login attempts of
 * one e-mail and address, the uploads of one company): in one turn, no other task of the key can
 * pass the same check before the first one's write is done.
 */
export type KeyedQueue = <T>(key: string, task: () => Promise<T>) => Promise<T>

export function createKeyedQueue(): KeyedQueue {
	const tails = new Map<string, Promise<void>>()
	return <T>(key: string, task: () => Promise<T>): Promise<T> => {
		const run = (tails.get(key) ?? Promise.resolve()).then(task)
		const tail = run.then(
			() => {},
			() => {},
		)
		tails.set(key, tail)
		void tail.then(() => {
			if (tails.get(key) === tail) tails.delete(key)
		})
		return run
	}
}
