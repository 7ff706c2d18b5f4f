/**
 * The REST toolkit of `userbot-gateway/plugin` (re-exported there): what a plugin that serves HTTP
 * routes is written with, the built-in ones (accounts, api-accounts, userbots, webhooks) and anyone
 * else's alike. Services with state (who is calling, sessions, tokens, rate limits, mail) are not
 * here: a plugin gets them from its `AppContext` (`ctx.auth`, `ctx.db`, `ctx.log`...). What is here
 * is stateless: the answers in Django REST framework's shapes that docs/rest.md requires, body
 * reading, the account fields' checks, text rules, the audit writer, and the tables (see
 * docs/plugins.md#tables for why they are handed out and not wrapped).
 */

// Answers and errors: `{"detail", "code"?}` or `{"<field>": ["message"]}`, never an echoed value.

/** The auth wire strings (docs/rest.md#conventions) word for word, and the 401/403/429 bodies built from them. */
export {
	MESSAGES as AUTH_MESSAGES,
	statusNotAllowed,
	throttled,
	tokenNotValid,
	unauthorized,
} from '../auth/errors'
/** A JSON `Response`, with `Set-Cookie` lines when given: for routes that build their own answer. */
export { JSON_HEADERS, json } from '../auth/respond'
/** Thrown from a handler, answered by the app's one error handler with its status, body and headers. */
export { badRequest, type ErrorBody, HttpError, notFound } from '../http/errors'
/** After a plugin's routes: 405 with `Allow` for the other methods of its paths, and OPTIONS 200. */
export { answerOtherMethods } from '../http/methods'
/** A database that is full or gone answers 507/503 with a sentence of ours (`storageAnswer`), not a 500. */
export { type StorageFailure, storageAnswer, storageFailure } from '../http/storage-errors'

// Reading what a client sent.

/** Text a client sends to be stored: what is wrong with it, and its stored (NFC, trimmed) form. */
export {
	normalizeEmail,
	normalizeText,
	secretFault,
	TEXT_FAULT_MESSAGES,
	type TextFault,
	textFault,
} from '../../common/util/text'
/** The account fields (email, password, name, token) as DRF serializers check them, normalised. */
export { checkFields, FIELDS, type FieldSpec, parseFields } from '../auth/fields'
/** Django's password validators (length, common, numeric, similar to the user): their messages. */
export { type UserAttributes, validatePassword } from '../auth/password-policy'
/** The body as a JSON object (400, 413 as DRF answers them), for a route that reads its own body. */
export { readJsonObject } from '../http/body'
/** An integer query parameter (`?limit=`) checked as DRF's IntegerField with a range words it. */
export { queryInteger } from '../http/query'

// Accounts and permissions.

/** The types of the services `ctx.auth` offers (src/server/auth/services.ts). */
export type { AuthenticatedCaller, CallerOutcome } from '../auth/authenticator'
export type { CheckedUser } from '../auth/credentials'
/** Random tokens (base64url) and the SHA-256 under which a token is stored instead of itself. */
export { randomToken, sha256 } from '../auth/crypto'
export type { TokenPair } from '../auth/families'
export type { Mail, Mailer } from '../auth/mailer'
export type { PasswordHasher } from '../auth/passwords'
/** Whether a profile may act at all: active, and an owner or a member whose work status allows work. */
export { mayWork, type Profile } from '../auth/profiles'
export type { AuthServices } from '../auth/services'
export type { MainTokens } from '../auth/sessions'
export type { AuthOutcome } from '../auth/types'
/** The owner-only permissions a member may be granted, with their descriptions. */
export { isPermission, PERMISSION_NAMES, PERMISSIONS } from '../policy/permissions'

// The audit log, the database, the log.

/** `ctx.db`, or a transaction of it: what a query helper that may run inside one takes. */
export type { Database } from '../../../db/client'

// Networks and live updates.

export { isTdUpdate } from '../../runtime/telegram/schema'
/**
 * Where the server may connect when a company names the place (a webhook's URL, a userbot's proxy):
 * public addresses only, unless the operator's allow-list names them; names resolved at each use.
 */
export {
	type AddressPolicy,
	AddressRefused,
	type CachedLookup,
	cachedLookup,
	defaultLookup,
	hostResolverNow,
	isInternalAddress,
	type Lookup,
} from '../net/address-policy'
/** What `ctx.updates.observe` hands an observer (a userbot's numbered update), and the TDLib update names. */
export type { ObservedEvent, UpdateHub } from '../updates/hub'
/** Webhook endpoints owned by one API key (the Bot API face's setWebhook), served by the webhooks plugin. */
export {
	KEY_WEBHOOK_EVENT,
	type KeyWebhookOwner,
	KeyWebhookRefused,
	type KeyWebhookSetting,
	type KeyWebhookState,
	type KeyWebhooks,
} from '../updates/key-webhooks'

// Routes as data (docs/plugins.md#routes-as-data).

/**
 * Issue 43: what a route or a command needs, as data on its definition (docs/policy.md): a policy
 * entry (`action`, `resource`, `find`), enforced by the route's guard (`ctx.auth.guard(locators)`,
 * handed to `serveRoutes`) or by the gateway, both asking the one `can`. A list a route answers shows
 * only what the principal reaches (`reachesUserbot`, `reachesEvery`); an endpoint made without
 * userbots gets those the principal reaches (`reachedUserbots`).
 */
export type { Locate, Located, Locators } from '../auth/route-guard'
/**
 * Issue 44: a body as one valibot schema (src/server/http/body-schema.ts): validated by the route, worded
 * from its own messages as DRF's field errors (`requiredField`: a missing one), documented by
 * `@valibot/to-json-schema`, or as `documentedAs` says where the converter cannot.
 */
export {
	AccountFields,
	choice,
	documentedAs,
	drfBody,
	faulted,
	fieldOutcomes,
	requiredField,
} from '../http/body-schema'
export {
	/** An account field's rule (`AccountFields.custom`): its length, its kind, optional, blank allowed. */
	type FieldRule,
	/** DRF's generic field error: what a client reads when a rule did not word a problem itself. */
	INVALID_VALUE,
} from '../http/field-rule'
/**
 * Issue 24: a route as one definition, served (`serveRoutes`) and described (`describeRoutes`) from
 * it; its body validated by its valibot schema, the failures worded as DRF's field errors
 * (`AccountFields`: the account fields as DRF checks them; `faulted`: a rule's own message). A
 * schema of another language (TypeBox's `t.Object`) stops the start (docs/plugins.md#routes-as-data).
 */
export {
	describeRoutes,
	type RestRoute,
	type RouteInput,
	restRoute,
	serveRoutes,
} from '../http/rest-route'
/** A plugin's routes as data (its `api`): what the OpenAPI document says of each route it serves. */
export {
	BEARER_OR_SESSION,
	documentedOnly,
	ROUTE_ERRORS,
	type RouteData,
} from '../openapi/route-data'
/** The shared wire shapes of the REST answers, bodies and path parameters (valibot), for a plugin's route data. */
export * as RestSchemas from '../openapi/schemas'
export { mayRun, reachedUserbots, reachesEvery, reachesUserbot } from '../policy/can'
export {
	BOT_API_POLICY,
	byParam,
	type CommandPolicy,
	type Finder,
	inBody,
	MCP_POLICY,
	OF_COMPANY,
	type PolicyEntry,
	PUBLIC_READ,
	PUBLIC_WRITE,
	policyHook,
} from '../policy/entry'
export { companyOf } from '../policy/principal'

// Tables, refusals, audit and operations (the userbot lifecycle, docs/plugins.md#the-userbot-lifecycle, is
// the userbots plugin's own: it reaches the core through these and its context).

/**
 * The core's tables, for drizzle queries on `ctx.db` (docs/plugins.md#tables): the account tables
 * the account families write and the userbots. A plugin's own tables are its own (plugins/webhooks/tables.ts).
 */
export {
	apiKey,
	company,
	invite,
	memberGrant,
	statusOnWork,
	userbot,
	userProfile,
} from '../../../db/schema'
/** `ctx.log`: JSON lines, secret-looking fields masked. */
export type { Logger } from '../../common/util/logger'
/** A refusal said once for every face (REST status and body, the command's wire string). */
export { Refusal } from '../../common/util/refusal'
/** Resolves with a promise, or with a fallback once a deadline passed (the promise is left to finish). */
export { within } from '../../common/util/within'
/** A request only the emulated Telegram understands (its test controls: revoke, ban, limit), to type as a TDLib one. */
export type { EmulatorRequest } from '../../emulator'
/** `readFilePart`'s bound: the largest part the files route reads, and a shard lets through, in one call. */
export { READ_PART_BYTES } from '../../runtime/telegram/file-parts'
/** Writes one audit line for what a principal (or a user acting on themself) did, inside `tx` when given. */
export { type AuditActor, type AuditEntry, writeAudit } from '../audit/log'
export type { Executor } from '../auth/db-types'
// Issue 44 (an operation, then its faces): one definition served as a REST route and a command.
export { commandFace, type RestFaceContext, restFace } from '../operations/faces'
export {
	defineOperation,
	type Face,
	type Operation,
	type OperationCall,
	type RestPart,
} from '../operations/operation'
