import { bundled } from './bundled'

/**
 * What `new Worker` takes for the module at `url` (`new URL('./thread.ts', import.meta.url)`): that
 * URL from source, and for a plugin the binary loads from a folder; in the binary, the module's
 * place inside it when the build carries it as an entrypoint of its own (compile.ts
 * `WORKER_ENTRYPOINTS`). A source path of the build machine would not exist where the binary runs.
 */
export function workerModule(url: URL): string {
	return bundled()?.workers[url.href] ?? url.href
}
