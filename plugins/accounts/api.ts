import { describeRoutes } from 'userbot-gateway/plugin'
import { checkPasswordRoutes } from './routes/check-password'
import { inviteRoutes } from './routes/invites'
import { loginRoutes } from './routes/login'
import { logoutRoutes } from './routes/logout'
import { meRoutes } from './routes/me'
import { memberGrantRoutes } from './routes/member-grants'
import { memberRoutes } from './routes/members'
import { registerRoutes } from './routes/register'
import { resetRoutes } from './routes/reset'
import { tokenRoutes } from './routes/tokens'

/**
 * Family A's routes, each one definition (src/server/http/rest-route.ts) that `build` serves and the
 * OpenAPI document and the typed client read, in the order they are served.
 */
export const accountsRouteList = [
	...meRoutes,
	...registerRoutes,
	...checkPasswordRoutes,
	...loginRoutes,
	...logoutRoutes,
	...resetRoutes,
	...tokenRoutes,
	...inviteRoutes,
	...memberRoutes,
	...memberGrantRoutes,
] as const

/** The route data (docs/plugins.md#routes-as-data): what the document and the typed client read. */
export const accountsApi = describeRoutes('accounts-api', accountsRouteList)
