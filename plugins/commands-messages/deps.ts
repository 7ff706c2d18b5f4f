/** What every command file of this group imports from the core, in one line. */
export { CommandError, defineCommand } from '../../src/commands/define'
export {
	fields,
	optionalArray,
	optionalBool,
	optionalInt,
	optionalObject,
	optionalString,
	requiredInt,
	requiredIntList,
	requiredValue,
} from '../../src/commands/fields'
export {
	checkTdObject,
	formattedText,
	TEXT_ENTITY,
	tdListField,
	tdObjectField,
	tdSlot,
	textField,
	typeOf,
} from '../../src/commands/td-objects'
