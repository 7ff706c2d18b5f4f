/**
 * `userbot-gateway/plugin`: everything a command group needs, for the groups of this repository and
 * for anyone else's alike (the built-in groups import from here, never from `src/`). A group is a
 * plugin: `definePlugin({ id, commands: [defineCommand({...}), ...] })`, loaded by `PLUGINS` naming
 * its package or path, or by `createApp(config, { plugins })`.
 */
export type { AuditAction, AuditDetail } from './audit/log'
export type { Permission } from './auth/permissions'
export type { Principal } from './auth/types'
// Issue 26 (the webhooks' JetStream outbox): the bus a plugin finds in `ctx.bus`, and how its
// messages are sealed and named.
export type { Bus } from './bus/connection'
export { kvSubject } from './bus/subjects'
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
} from './commands/define'
export {
	documented,
	FIELD_DOC,
	type FieldDoc,
	fields,
	INT64_SCHEMA,
	INTEGER_SCHEMA,
	int64String,
	isIntegral,
	isMissing,
	isObject,
	type JsonObject,
	type JsonSchema,
	type ListCap,
	listCap,
	MAX_LIST_ITEMS,
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
	toInt,
	toInt64,
} from './commands/fields'
export {
	type CheckOptions,
	checkTdList,
	checkTdObject,
	type FormattedText,
	formattedText,
	isRemoteFileRef,
	isUnicodeText,
	LOCAL_FILE_REFUSED,
	type SlotOptions,
	slotTypes,
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
} from './commands/td-objects'
export type { Config } from './config'
export type { AppContext, CompanyEvent } from './context'
export type { FloodClass } from './flood/limits'
export { GatewayErrors, wordError } from './gateway/errors'
export { definePlugin, type PluginDefinition } from './plugin'
export { PARSE_FAILED } from './telegram/schema/types'
export {
	RuntimeError,
	TdError,
	type TdInvoke,
	type TdMethod,
	type TdRequest,
	type TdResult,
	type TdUpdate,
} from './telegram/types'
