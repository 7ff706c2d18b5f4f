import { describeRoutes } from 'userbot-gateway/plugin'
import { userbotRouteList } from './routes'

/**
 * The userbot routes as data (docs/plugins.md#routes-as-data): read from the same definitions
 * `build` serves. The OpenAPI document and the typed client read them.
 */
export const userbotsApi = describeRoutes('userbots-api', userbotRouteList)
