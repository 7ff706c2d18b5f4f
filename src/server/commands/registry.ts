import { commandEntry, entryFault, type PolicyEntry } from '../policy/entry'
import type { CommandDefinition, CommandGroup } from './define'

export interface RegisteredCommand {
	command: CommandDefinition
	groupId: string
	/** Its whole policy entry: the definition's part, on the userbot its frame names, in its group. */
	policy: PolicyEntry
}

/** Actions the gateway answers for the connection itself (renewal now; live updates next). */
const RESERVED: ReadonlySet<string> = new Set(['authenticate', 'subscribe', 'unsubscribe'])

/** Two groups claimed one wire name, or a group is malformed: the app must not start. */
export class CommandRegistryError extends Error {
	override name = 'CommandRegistryError'
}

/**
 * The gateway's table of commands, by exact wire name. Registering one name twice fails at start
 * and names both groups (better-auth's conflict check), so a plugin can never shadow another's command.
 */
export function createCommandRegistry(
	groups: readonly CommandGroup[],
): ReadonlyMap<string, RegisteredCommand> {
	const byName = new Map<string, RegisteredCommand>()
	for (const group of groups) {
		for (const command of group.commands) {
			if (!/^[a-z][a-z0-9_]*$/.test(command.name)) {
				throw new CommandRegistryError(`command group '${group.id}': invalid command name '${command.name}'`)
			}
			if (RESERVED.has(command.name)) {
				throw new CommandRegistryError(
					`command group '${group.id}': '${command.name}' is a frame of the gateway itself`,
				)
			}
			const existing = byName.get(command.name)
			if (existing) {
				const where =
					existing.groupId === group.id
						? `twice in command group '${group.id}'`
						: `by both command groups '${existing.groupId}' and '${group.id}'`
				throw new CommandRegistryError(`command '${command.name}' is registered ${where}`)
			}
			const policy = commandEntry(command.policy, group.id, command.name)
			const fault = entryFault(policy)
			if (fault)
				throw new CommandRegistryError(
					`command '${command.name}' of group '${group.id}' ${fault} (docs/policy.md)`,
				)
			byName.set(command.name, { command, groupId: group.id, policy })
		}
	}
	return byName
}
