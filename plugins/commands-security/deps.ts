/** What every command file of this group imports from the core, in one line. */
export { CommandError, defineCommand } from '../../src/commands/define'
export { fields, optionalBool, requiredInt, requiredValue } from '../../src/commands/fields'
export { isUnicodeText } from '../../src/commands/td-objects'
