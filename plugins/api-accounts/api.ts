import { describeRoutes } from 'userbot-gateway/plugin'
import { loginRoutes } from './routes/login'
import { logoutRoutes } from './routes/logout'

/**
 * Family B's routes, each one definition (src/server/http/rest-route.ts) that `build` serves and the
 * OpenAPI document and the typed client read (docs/plugins.md#routes-as-data).
 */
export const apiAccountsRouteList = [...loginRoutes, ...logoutRoutes] as const

export const apiAccountsApi = describeRoutes('api-accounts-api', apiAccountsRouteList)
