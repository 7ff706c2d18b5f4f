import { TdError, type TdInvoke } from '../../runtime/telegram/types'

/** TDLib's words for a chat its client does not know (load_dialog, get_dialog_force). */
export const CHAT_NOT_FOUND = 'Chat not found'
/** What TDLib says of the same for the request's `chat_id`: forwardMessages names its target chat. */
const NOT_FOUND_WORDS: ReadonlySet<string> = new Set([
	CHAT_NOT_FOUND,
	'Chat to forward messages to not found',
])

/**
 * Reaching a person (docs/command-groups.md#reaching-a-person). TDLib on a user account knows a user's
 * private chat only once a message was in it or the client opened it (`createPrivateChat`): a
 * user id that `import_contacts` just answered is "Chat not found" to every other request. A command
 * that declares `createPrivateChat` among its `methods` gets TDLib through this: a request with a
 * positive `chat_id` (a user's chat) that TDLib answers "Chat not found" opens that chat
 * (`createPrivateChat {user_id, force: false}`: TDLib's "User not found" if it cannot reach the
 * user) and is sent once more. A request that failed so changed nothing, so sending it again is safe;
 * a chat TDLib knows costs nothing more.
 */
export function reachingPrivateChats(invoke: TdInvoke): TdInvoke {
	return (async (request) => {
		try {
			return await invoke(request)
		} catch (err) {
			const chatId = (request as { chat_id?: unknown }).chat_id
			if (!(err instanceof TdError) || !NOT_FOUND_WORDS.has(err.message)) throw err
			if (typeof chatId !== 'number' || chatId <= 0 || request._ === 'createPrivateChat') throw err
			await openPrivateChat(invoke, chatId, err)
			return invoke(request)
		}
	}) as TdInvoke
}

/** `createPrivateChat` of `userId`; a user TDLib cannot reach leaves the chat as not found (`notFound`). */
async function openPrivateChat(invoke: TdInvoke, userId: number, notFound: TdError): Promise<void> {
	try {
		await invoke({ _: 'createPrivateChat', user_id: userId, force: false })
	} catch (err) {
		// TDLib's "User not found" (a user id it never saw, or none): the chat stays not found.
		if (err instanceof TdError && err.code === 400) throw notFound
		throw err
	}
}

/** Whether a command reaches people by their user id as a chat id (it declares `createPrivateChat`). */
export const reachesPeople = (methods: readonly string[]) => methods.includes('createPrivateChat')
