import type { TdInvoke } from '../src/runtime/telegram/types'
import type { CommandContext } from '../src/server/commands/define'

/** A TDLib request as a command sends it. */
export type TdRequest = { _: string } & Record<string, unknown>
/** What the stub TDLib answers to a request (a value, or a throw for an error). */
export type Answer = (req: TdRequest) => unknown

export interface StubOptions {
	signal?: AbortSignal
	uploadedFilePath?: CommandContext['uploadedFilePath']
	onUpdate?: CommandContext['onUpdate']
}

/**
 * A command context whose TDLib is `answer` and which records every request in order: the mapping
 * tests' view of the exact requests a command builds, where the emulator cannot show them.
 */
export function stubContext(
	answer: Answer = () => ({ _: 'ok' }),
	opts: StubOptions = {},
): { ctx: CommandContext; requests: TdRequest[] } {
	const requests: TdRequest[] = []
	const invoke = (async (req: TdRequest) => {
		requests.push(req)
		return answer(req)
	}) as unknown as TdInvoke
	const ctx: CommandContext = {
		userbotId: 1,
		principal: {
			userId: 1,
			email: 'a@b.c',
			companyId: 1,
			isOwner: true,
			grants: new Set(),
			standing: 'works',
			via: 'bearer',
		},
		invoke,
		signal: opts.signal ?? new AbortController().signal,
		uploadedFilePath: opts.uploadedFilePath ?? (async () => null),
		onUpdate: opts.onUpdate ?? (() => () => {}),
	}
	return { ctx, requests }
}
