import type { AppContext } from 'userbot-gateway/plugin'
import { chatsUri, messagesUri } from './resources'
import type { Session } from './sessions'

/**
 * The resources the sessions subscribed to, by URI, fed by the live-update hub (`ctx.updates.observe`):
 * a new message of a userbot's chat sends `notifications/resources/updated` for that chat's
 * messages and for the userbot's chat list, to each session subscribed to either. Nothing is read
 * for them: the agent reads the resource again when it wants the new content.
 */
export class Watchers {
	private readonly byUri = new Map<string, Set<Session>>()
	private readonly stop: () => void

	constructor(ctx: AppContext) {
		this.stop = ctx.updates.observe((event) => {
			if (!event.live || event.kind !== 'updateNewMessage' || this.byUri.size === 0) return
			const chatId = (event.data.message as { chat_id?: unknown } | undefined)?.chat_id
			this.notify(chatsUri(event.userbotId))
			if (typeof chatId === 'number') this.notify(messagesUri(event.userbotId, chatId))
		})
	}

	add(session: Session, uri: string): void {
		session.uris.add(uri)
		const sessions = this.byUri.get(uri) ?? new Set<Session>()
		this.byUri.set(uri, sessions)
		sessions.add(session)
	}

	remove(session: Session, uri: string): void {
		session.uris.delete(uri)
		session.held.delete(uri)
		const sessions = this.byUri.get(uri)
		sessions?.delete(session)
		if (sessions?.size === 0) this.byUri.delete(uri)
	}

	/** The session ended: none of its subscriptions stays. */
	drop(session: Session): void {
		for (const uri of [...session.uris]) this.remove(session, uri)
	}

	private notify(uri: string): void {
		// A session whose stream is gone misses it, as an unread notification is: nothing is kept.
		for (const session of this.byUri.get(uri) ?? [])
			void session.server.sendResourceUpdated({ uri }).catch(() => {})
	}

	close(): void {
		this.stop()
		this.byUri.clear()
	}
}
