import { definePluginSettings, type SettingsValues, setting, settingTypes } from 'userbot-gateway/plugin'
import * as v from 'valibot'

const { int } = settingTypes

/**
 * The MCP face's settings (docs/configuration.md, docs/mcp.md#sessions), read from the environment
 * when the plugin loads; `mcp({ ... })` given in code overrides them.
 */
export const MCP_SETTINGS = definePluginSettings({
	/** MCP sessions open at once on this gateway, every key's together; one more is refused. */
	maxSessions: setting('MCP_MAX_SESSIONS', v.optional(int(1, 100_000), '256')),
	/** MCP sessions one API key may hold open at once; one more is refused. */
	sessionsPerKey: setting('MCP_SESSIONS_PER_KEY', v.optional(int(1, 100_000), '16')),
	/** Seconds a session may go without a request before it is ended (its subscriptions with it). */
	idleSeconds: setting('MCP_SESSION_IDLE', v.optional(int(10, 7 * 86_400), '1800')),
})

export type McpConfig = SettingsValues<typeof MCP_SETTINGS>
