/**
 * Everything a command needs to take TDLib objects from a client: the validator (td-validator.ts)
 * and the command fields built on it (td-fields.ts). Import from here.
 */
export * from './td-fields'
export * from './td-validator'
