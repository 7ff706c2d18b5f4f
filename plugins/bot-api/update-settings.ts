import { DEFAULT_TYPES, UPDATE_TYPES, type UpdateType } from './update-of'

/** A token's own settings: the kinds it wants, its own sends or not (docs/bot-api.md#updates). */
export interface TokenSettings {
	allowed: ReadonlySet<UpdateType>
	includeOwn: boolean
}

export const defaultSettings = (): TokenSettings => ({ allowed: DEFAULT_TYPES, includeOwn: false })

/** The settings as a key's webhook keeps them (the endpoint's `key_settings`) and getUpdates stores them. */
export const settingsJson = (s: TokenSettings, extra: Record<string, unknown> = {}) =>
	JSON.stringify({ allowed_updates: [...s.allowed], include_own_sends: s.includeOwn, ...extra })

export function settingsFrom(json: string): TokenSettings & { maxConnections?: number } {
	try {
		const raw = JSON.parse(json) as Record<string, unknown>
		const list = Array.isArray(raw.allowed_updates) ? raw.allowed_updates : []
		const allowed = new Set(UPDATE_TYPES.filter((t) => list.includes(t)))
		return {
			allowed: allowed.size > 0 ? allowed : DEFAULT_TYPES,
			includeOwn: raw.include_own_sends === true,
			...(typeof raw.max_connections === 'number' ? { maxConnections: raw.max_connections } : {}),
		}
	} catch {
		return defaultSettings()
	}
}
