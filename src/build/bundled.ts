/**
 * What a compiled binary carries beside its code. Run from source there is nothing: `npm run build`
 * (compile.ts) puts a generated module in this one's place that embeds TDLib's shared library, so
 * every "am I the binary?" question in the code is this one function.
 */
export interface Bundled {
	/** The embedded libtdjson inside the binary: readable, not loadable (dlopen needs a real file). */
	tdjson: string
	/** The first hex digits of libtdjson's sha256: names its copy in the cache. */
	tdjsonId: string
	tdjsonBytes: number
	/**
	 * The worker threads' modules the binary carries, each an entrypoint of the build of its own
	 * (compile.ts `WORKER_ENTRYPOINTS`): by the `file:` URL of its source while building (what
	 * `new URL('./x.ts', import.meta.url)` gives in the binary, whose modules keep their build-time
	 * `import.meta.url`), the specifier `new Worker` takes there (./worker-module.ts).
	 */
	workers: Readonly<Record<string, string>>
}

export function bundled(): Bundled | null {
	return null
}
