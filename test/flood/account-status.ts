import type { ChatUpdate, MessagingFixture } from '../helpers-ws'

/**
 * What the account-health tests share: the emulator account the messaging fixture logs in, Bob's chat
 * with Alice, a REST call as Alice, and the matcher of the status event.
 */

/** The account the fixture's userbot is logged in to (the emulator's seed). */
export const PHONE = '9996621234'
/** Bob's private chat with Alice (the emulator's seed). */
export const ALICE_CHAT = 1001

/** A REST call with Alice's access token; `body` as JSON when given. */
export const call = (f: MessagingFixture, method: string, path: string, body?: unknown) =>
	fetch(`${f.t.url}${path}`, {
		method,
		headers: { authorization: `Bearer ${f.alice.access}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	})

/** The account status event on the command channel: a company event, never a numbered update. */
export const isStatus = (status: string) => (m: ChatUpdate) =>
	m.type === 'chat_update' &&
	m.payload?.type === 'userbot_status' &&
	(m.payload.result as { status?: string } | undefined)?.status === status
