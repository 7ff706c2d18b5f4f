import type { CommandDefinition } from '../../src/commands/define'

/** The 13 invite-link and join-request commands. */
export const inviteLinkCommands: readonly CommandDefinition[] = []
