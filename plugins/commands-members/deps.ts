/** What every command file of this group imports from the core, in one line. */
export { type CommandContext, CommandError, defineCommand } from '../../src/commands/define'
export {
	fields,
	int64String,
	isObject,
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
	isUnicodeText,
	TdObjectError,
	tdListField,
	tdObjectField,
	tdSlot,
	textField,
	typeOf,
} from '../../src/commands/td-objects'
export { wordError } from '../../src/gateway/errors'
export { PARSE_FAILED } from '../../src/telegram/schema/types'
export { RuntimeError, TdError } from '../../src/telegram/types'
