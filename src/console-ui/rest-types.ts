import type { RestApi } from '../../packages/client/src/generated/rest-api'
import type { RestResult } from '../../packages/client/src/rest-types'

/**
 * The REST bodies the console reads, taken from the typed client's generated tree
 * (packages/client/src/generated/rest-api.ts, made from docs/openapi.json by `npm run docs`), so a
 * change of a route's answer shows up here as a type error instead of a silent copy going stale.
 * Types only: nothing of the client package is bundled into the console.
 */
type Answer<F> = F extends (...args: never[]) => Promise<RestResult<infer D, infer _E>> ? D : never
type Api = RestApi['api']
type Accounts = RestApi['accounts']
type OneWebhook = ReturnType<Api['webhooks']>

/** `GET /api/userbots/`: one userbot. */
export type Userbot = Answer<Api['userbots']['get']>[number]
/** `GET /api/webhooks/`: one endpoint (its secret is never listed). */
export type Endpoint = Answer<Api['webhooks']['get']>[number]
/** `POST /api/webhooks/` and `POST .../rotate-secret/`: the endpoint with its secret, shown once. */
export type EndpointWithSecret = Answer<Api['webhooks']['post']>
/** `GET /api/webhooks/{id}/deliveries/`: one delivery and its last attempt. */
export type Delivery = Answer<OneWebhook['deliveries']['get']>[number]
/** `POST /api/webhooks/{id}/test/`: the test event's ids. */
export type TestSent = Answer<OneWebhook['test']['post']>
/** `POST /api/webhooks/{id}/replay/`. */
export type Replayed = Answer<OneWebhook['replay']['post']>
/** `GET /api/keys/`: one live key (never the key itself). */
export type ApiKey = Answer<Api['keys']['get']>[number]
export type KeyScopes = ApiKey['scopes']
/** `POST /api/keys/`: the key with its secret, shown once. */
export type CreatedKey = Answer<Api['keys']['post']>
/** `GET /api/audit/`: one line. */
export type AuditLine = Answer<Api['audit']['get']>[number]
/** `GET /accounts/members/`: one member. */
export type Member = Answer<Accounts['members']['get']>[number]
/** `GET /accounts/invites/`: one invite (never its token). */
export type Invite = Answer<Accounts['invites']['get']>[number]
