/** What every command file of this group imports from the core, in one line. */
export { type CommandContext, CommandError, defineCommand } from '../../src/commands/define'
export {
	fields,
	int64String,
	isObject,
	type JsonObject,
	listCap,
	optionalArray,
	optionalBool,
	optionalInt,
	optionalObject,
	optionalString,
	requiredInt,
	requiredIntList,
	requiredValue,
	toInt,
} from '../../src/commands/fields'
export {
	checkTdList,
	checkTdObject,
	formattedText,
	TdObjectError,
	tdListField,
	tdObjectField,
	tdSlot,
	textField,
	typeOf,
} from '../../src/commands/td-objects'
export { wordError } from '../../src/gateway/errors'
export { RuntimeError, TdError } from '../../src/telegram/types'
