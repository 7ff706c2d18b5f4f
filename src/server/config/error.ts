/** A bad setting: one line naming the variable, never its value (`configuration error: ...` at start). */
export class ConfigError extends Error {
	override name = 'ConfigError'
}
