/** What every command file of this group imports from the core, in one line. */
export { CommandError, defineCommand } from '../../src/commands/define'
export {
	fields,
	int64String,
	isObject,
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
// The administrator commands (administrators.ts): text checks, and wording a TDLib failure that
// follows a change already made.
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
export { RuntimeError, TdError } from '../../src/telegram/types'
