/** A start that cannot go on (two plugins of one id, two claims on one route...): one line, exit 2. */
export class StartupError extends Error {
	override name = 'StartupError'
}
