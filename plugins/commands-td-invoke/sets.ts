import { tdFunctionNames } from 'userbot-gateway/plugin'
import { isDenied } from './deny'

/**
 * TD_INVOKE_METHODS' ready sets (docs/operator.md#any-tdlib-method). `read`: every `get*` and
 * `search*` method of TDLib 1.8.65 but those that act on the account although their name reads
 * (`ACTING_GETS`). `all`: every method. Denied methods are out of both, and out of the list itself.
 */
export const SETS = ['read', 'all'] as const
export type SetName = (typeof SETS)[number]

/** `get*` methods that do something: log in on a website, press a bot's button, tell a bot. */
export const ACTING_GETS: readonly string[] = [
	'getLoginUrl',
	'getExternalLink',
	'getCallbackQueryAnswer',
	'getInlineQueryResults',
	'getWebAppUrl',
	'getWebAppLinkUrl',
	'getMainWebApp',
]

/** Whether a method is of the `read` set: a `get*` or `search*` that does not act. */
export const isReadMethod = (m: string): boolean => /^(get|search)[A-Z]/.test(m) && !ACTING_GETS.includes(m)

function members(set: SetName): string[] {
	const all = tdFunctionNames()
	return set === 'all' ? [...all] : all.filter(isReadMethod)
}

/** The methods an allow-list names: its sets expanded, its names as they are, denied ones left out; sorted. */
export function expandMethods(entries: readonly string[]): string[] {
	const out = new Set<string>()
	for (const entry of entries) {
		for (const m of (SETS as readonly string[]).includes(entry) ? members(entry as SetName) : [entry])
			if (!isDenied(m)) out.add(m)
	}
	return [...out].sort()
}
