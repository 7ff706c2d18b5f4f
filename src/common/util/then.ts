/**
 * `next` of a value: at once when it is one, after it when it is a promise. What keeps a hot path
 * synchronous when memory answers (a session's or a Bot API token's caller) and asynchronous only
 * when something must be read.
 */
export function then<T, U>(value: T | Promise<T>, next: (v: T) => U | Promise<U>): U | Promise<U> {
	return value instanceof Promise ? value.then(next) : next(value)
}
