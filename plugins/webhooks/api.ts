import { describeRoutes } from 'userbot-gateway/plugin'
import { webhookRouteList } from './routes'

/**
 * The webhook routes as data (docs/plugins.md#routes-as-data, docs/webhooks.md): read from the
 * same definitions `build` serves.
 */
export const webhooksApi = describeRoutes('webhooks-api', webhookRouteList)
