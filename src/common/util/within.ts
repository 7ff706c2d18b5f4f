/** Resolves with `promise`, or with `fallback` once `ms` passed (the promise is left to finish). */
export async function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
	let timer: ReturnType<typeof setTimeout> | undefined
	const timeout = new Promise<T>((resolve) => {
		timer = setTimeout(() => resolve(fallback), ms)
	})
	try {
		return await Promise.race([promise, timeout])
	} finally {
		clearTimeout(timer)
	}
}
