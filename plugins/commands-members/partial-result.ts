import type { failedToAddMember } from 'tdlib-types'
import { CommandError, RuntimeError, TdError, wordError } from 'userbot-gateway/plugin'

/**
 * What add_chat_member(s) carry beside an error (docs/protocol.md#envelopes): TDLib's `failedToAddMembers`
 * merged over the calls that went through, and `remaining_user_ids`, the users of the call that failed and of
 * every call not made: none of them was added, and a retry needs only them.
 */
export interface PartialAdd {
	_: 'failedToAddMembers'
	failed_to_add_members: failedToAddMember[]
	remaining_user_ids: number[]
}

/**
 * The error event for a failed call: its words (TDLib's message) with the partial result. A failure
 * that is no TDLib answer (a bug) is passed on as it is, for the gateway to log as `internal error`.
 */
export function addFailure(err: unknown, failed: failedToAddMember[], remaining: number[]): unknown {
	if (!(err instanceof TdError || err instanceof RuntimeError || err instanceof CommandError)) return err
	const result: PartialAdd = {
		_: 'failedToAddMembers',
		failed_to_add_members: failed,
		remaining_user_ids: remaining,
	}
	return new CommandError(wordError(err), result)
}
