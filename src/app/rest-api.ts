import { Elysia } from 'elysia'
import { accountsApi } from '../../plugins/accounts/api'
import { apiAccountsApi } from '../../plugins/api-accounts/api'
import { userbotsApi } from '../../plugins/userbots/api'
import { webhooksApi } from '../../plugins/webhooks/api'
import { coreRouteData } from './core-routes'

/**
 * Every REST route of the core and the built-in plugins, as data (route-data.ts): only for the type
 * of `userbot-gateway/client`'s Eden client and for the tests that compare it with what is served.
 * The served document reads each loaded plugin's own `api` instead.
 */
export const restApi = new Elysia({ name: 'rest-api' })
	.use(coreRouteData)
	.use(accountsApi)
	.use(apiAccountsApi)
	.use(userbotsApi)
	.use(webhooksApi)

/** The REST app's type, for Eden (`treaty<RestApi>(url)`). */
export type RestApi = typeof restApi
