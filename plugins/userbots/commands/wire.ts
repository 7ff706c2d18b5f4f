import { CommandError, UserbotError } from 'userbot-gateway/plugin'
import { bodies } from '../bodies'

export const ws = bodies('ws')

/** Runs a lifecycle call for a command: its refusals become the `<command>_error` string. */
export async function wire<T>(fn: () => Promise<T>): Promise<T> {
	try {
		return await fn()
	} catch (err) {
		if (err instanceof UserbotError) throw new CommandError(err.wire)
		throw err
	}
}
