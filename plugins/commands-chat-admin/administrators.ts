import type { CommandDefinition } from '../../src/commands/define'

/** add_chat_administrator, remove_chat_administrator, transfer_chat_ownership. */
export const administratorCommands: readonly CommandDefinition[] = []
