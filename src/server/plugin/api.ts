/**
 * `userbot-gateway/plugin`: everything a plugin needs, for the plugins of this repository and for
 * anyone else's alike (every built-in plugin imports from here, never from `src/` or `db/`;
 * test/plugins/imports.test.ts holds them to it). A command group is a plugin:
 * `definePlugin({ id, commands: [defineCommand({...}), ...] })`; a plugin with routes returns them
 * from `build(ctx)`, written with the REST toolkit (src/server/plugin/rest.ts, re-exported below) and the
 * services of its `AppContext`. Loaded by `PLUGINS` naming its package or path, or by
 * `createApp(config, { plugins })`.
 */

// Issue 26 (the webhooks' writer thread in the binary): what `new Worker` takes for a plugin's thread.
export { workerModule } from '../../build/worker-module'
// Issue 44 (the userbot lifecycle is one plugin, plugins/userbots): what it reads of the runtime, its
// TDLib authorization states, a proxy's secret checked as TDLib takes it, one change at a time per key.
export { createKeyedQueue, type KeyedQueue } from '../../common/util/keyed-queue'
// Issue 24 (one wire module): a plugin's pushes are built as the gateway builds its replies.
export { type ChatUpdate, errorEvent, successEvent } from '../../common/wire/envelope'
export { GatewayErrors } from '../../common/wire/errors'
// Issue 46 (conversations): the longest a command may wait beyond the ordinary allowance.
export { MAX_WAIT_SECONDS } from '../../common/wire/limits'
// Issue 26 (the webhooks' JetStream outbox): the bus a plugin finds in `ctx.bus`, and how its
// messages are sealed and named.
export type { Bus } from '../../runtime/bus/connection'
export { kvSubject } from '../../runtime/bus/subjects'
export type { UserbotStatus } from '../../runtime/flood/health'
export type { FloodClass } from '../../runtime/flood/limits'
export type { RuntimeEvent, TelegramRuntime } from '../../runtime/supervisor/types'
export { STATES } from '../../runtime/telegram/authorization-states'
export { proxySecretFault, type TdProxy } from '../../runtime/telegram/proxy'
export { isTdFunction, tdFunctionNames } from '../../runtime/telegram/schema'
export { PARSE_FAILED } from '../../runtime/telegram/schema/types'
export {
	RuntimeError,
	TdError,
	type TdInvoke,
	type TdMethod,
	type TdRequest,
	type TdResult,
	type TdUpdate,
} from '../../runtime/telegram/types'
export type { AuditAction, AuditDetail } from '../audit/log'
// Issue 24 (the accounts plugin owns its settings): mail, built from a plugin's own SMTP settings.
export { keyFamily } from '../auth/api-keys'
export { createMailer, type MailSettings } from '../auth/mailer'
export type { Principal } from '../auth/types'
// Issue 46 (the MCP face): a command as the catalog tells it, for the faces made from the catalog.
export type { CatalogCommand } from '../catalog/catalog'
export {
	type Command,
	type CommandContext,
	type CommandDefinition,
	CommandError,
	type CommandGroup,
	type CommandInput,
	type CommandMapOf,
	defineCommand,
	defineCommandGroup,
	type InputSchema,
	type ResultDoc,
} from '../commands/define'
export {
	documented,
	type FieldDoc,
	fields,
	INT64_SCHEMA,
	INTEGER_SCHEMA,
	int64String,
	isObject,
	type JsonObject,
	type JsonSchema,
	type ListCap,
	listCap,
	optionalArray,
	optionalBool,
	optionalInt,
	optionalObject,
	optionalString,
	optionalText,
	requiredInt,
	requiredIntList,
	requiredString,
	requiredValue,
} from '../commands/fields'
export { isIntegral, isMissing, toInt, toInt64 } from '../commands/frame-values'
// Issue 46 (td_invoke): a whole TDLib request checked against the schema, and the schema's functions.
export { checkTdFunction, type FunctionCheck } from '../commands/td-function'
export {
	type CheckOptions,
	checkTdList,
	checkTdObject,
	type FormattedText,
	formattedText,
	isRemoteFileRef,
	isUnicodeText,
	type SlotOptions,
	type TdFieldOptions,
	TdObjectError,
	type TdSlot,
	TEXT_ENTITY,
	tdListField,
	tdObjectField,
	tdObjectSchema,
	tdSlot,
	textField,
	typeOf,
} from '../commands/td-objects'
export { type Config, TELEGRAM_NOT_CONFIGURED } from '../config'
// Issue 24: a plugin's own settings, declared once (variable, schema, default), read when it loads.
export { ConfigError } from '../config/error'
export type {
	AccountFile,
	AppContext,
	CompanyEvent,
	RestContext,
	ServedCommand,
	UploadedFile,
	UserbotFiles,
} from '../context'
export { wordError } from '../gateway/errors'
export type { Permission } from '../policy/permissions'
// Issue 46 (event filters): the one filter object of subscriptions and webhook endpoints, and its matcher.
export { type EventFacets, facetsOf, NO_FACETS, passes } from '../updates/event-facets'
export {
	type EventFilter,
	type EventFilterInput,
	filterJsonSchema,
	parseFilter,
} from '../updates/filter'
export { definePlugin, type PluginDefinition } from './define'
export * from './rest'
export {
	type CoreSettings,
	definePluginSettings,
	type PluginSettings,
	type Setting,
	type SettingsOf,
	type SettingsOptions,
	type SettingsShape,
	type SettingsValues,
	setting,
	settingTypes,
} from './settings'
