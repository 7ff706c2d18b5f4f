import { writeAudit } from '../audit/log'
import type { CommandDefinition } from '../commands/define'
import type { AppContext } from '../context'
import type { Connection } from './running'

/**
 * The audit line of a command that succeeded and changes the account (`audit` in its definition).
 * The change is done at Telegram by now: a line that cannot be written is logged (without the
 * input), and the client still gets its answer.
 */
export async function auditCommand(
	ctx: AppContext,
	conn: Connection,
	userbotId: number,
	command: CommandDefinition,
	input: unknown,
): Promise<void> {
	const audit = command.audit
	if (!audit) return
	try {
		await writeAudit(ctx.db, conn.principal, {
			action: audit.action,
			target: `userbot:${userbotId}`,
			detail: { command: command.name, ...audit.detail?.(input) },
			client: conn.client,
		})
	} catch (err) {
		ctx.log.error('audit line not written', {
			action: audit.action,
			userbotId,
			error: err instanceof Error ? err.message.split('\n')[0] : String(err),
		})
	}
}
