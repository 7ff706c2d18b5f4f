import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { Principal } from 'userbot-gateway/plugin'
import type { McpConfig } from './settings'

/**
 * The MCP sessions of this gateway (docs/mcp.md#sessions). **Decision:** sessions, not stateless
 * requests: a subscription's notifications go to the session's own stream (its GET). Each belongs
 * to the API key that opened it: a request with another key is answered as for a session that does
 * not exist. The number open at once is capped, over all keys and per key; a session without a
 * request for MCP_SESSION_IDLE ends, its subscriptions with it.
 */
export interface Session {
	readonly id: string
	readonly keyId: number
	/** The principal of its last request: what its notifications are decided for. */
	principal: Principal
	readonly server: Server
	readonly transport: WebStandardStreamableHTTPServerTransport
	/** The resources it subscribed to. */
	readonly uris: Set<string>
	/**
	 * Whether the agent opened its stream (GET) yet; before, the updates of its subscriptions are
	 * held (each URI once) and sent when it does, so that none is lost to the moment between its
	 * `initialize` and its GET.
	 */
	streamed: boolean
	readonly held: Set<string>
	lastUsed: number
}

/** A session being opened: counted against the caps until its `initialize` is answered. */
interface Opening {
	keyId: number
}

/** Seconds between two looks for idle sessions (at most). */
const SWEEP_MS = 60_000

export class Sessions {
	private readonly open = new Map<string, Session>()
	private readonly opening = new Set<Opening>()
	private readonly sweeper: ReturnType<typeof setInterval>

	constructor(
		private readonly config: McpConfig,
		private readonly now: () => number,
		/** A session ended (DELETE, idle, the app closing): its subscriptions go. */
		private readonly ended: (session: Session) => void,
	) {
		this.sweeper = setInterval(() => this.sweep(), Math.min(SWEEP_MS, config.idleSeconds * 500))
		this.sweeper.unref?.()
	}

	get size(): number {
		return this.open.size
	}

	/** The key's session of that id, or undefined (none, or another key's). */
	find(id: string, keyId: number): Session | undefined {
		const session = this.open.get(id)
		return session?.keyId === keyId ? session : undefined
	}

	/** Why a new session for the key is refused now, in a sentence, or null. */
	refusal(keyId: number): string | null {
		const total = this.open.size + this.opening.size
		if (total >= this.config.maxSessions)
			return `too many MCP sessions on this server (at most ${this.config.maxSessions}): try again later`
		let mine = 0
		for (const s of this.open.values()) if (s.keyId === keyId) mine++
		for (const o of this.opening) if (o.keyId === keyId) mine++
		if (mine >= this.config.sessionsPerKey)
			return `too many MCP sessions for this API key (at most ${this.config.sessionsPerKey}): end one (DELETE /mcp with its Mcp-Session-Id) or let one go idle`
		return null
	}

	/**
	 * A new session's server on its transport, its slot held while its first request is answered
	 * (`made` makes the server; `current` finds the session it serves once its id is given). Returns
	 * the transport and `settle`, to call after that first request: a request that was no
	 * `initialize` leaves no session behind.
	 */
	async start(principal: Principal, made: (current: () => Session | undefined) => Server) {
		const keyId = principal.key?.id ?? 0
		const slot: Opening = { keyId }
		this.opening.add(slot)
		let session: Session | undefined
		const server = made(() => session)
		const transport = new WebStandardStreamableHTTPServerTransport({
			sessionIdGenerator: () => crypto.randomUUID(),
			enableJsonResponse: true,
			// Below Bun's idle timeout (10 s), so that a quiet GET stream is not cut.
			keepAliveMs: 5_000,
			onsessioninitialized: (id) => {
				this.opening.delete(slot)
				session = {
					id,
					keyId,
					principal,
					server,
					transport,
					uris: new Set(),
					streamed: false,
					held: new Set(),
					lastUsed: this.now(),
				}
				this.open.set(id, session)
			},
			onsessionclosed: (id) => this.end(id),
		})
		await server.connect(transport)
		const settle = async () => {
			this.opening.delete(slot)
			if (transport.sessionId === undefined) await server.close()
		}
		return { transport, settle }
	}

	/** The agent opened its stream: what was held for it goes out. */
	streamOpened(session: Session): void {
		if (session.streamed) return
		session.streamed = true
		for (const uri of session.held) void session.server.sendResourceUpdated({ uri }).catch(() => {})
		session.held.clear()
	}

	/** Ends a session: its server and transport close, its subscriptions go. */
	end(id: string): void {
		const session = this.open.get(id)
		if (!session) return
		this.open.delete(id)
		this.ended(session)
		void session.server.close().catch(() => {})
	}

	/** Sessions whose key is `keyId`, or every one. */
	*each(keyId?: number): Iterable<Session> {
		for (const s of this.open.values()) if (keyId === undefined || s.keyId === keyId) yield s
	}

	private sweep(): void {
		const before = this.now() - this.config.idleSeconds * 1000
		for (const s of [...this.open.values()]) if (s.lastUsed < before) this.end(s.id)
	}

	close(): void {
		clearInterval(this.sweeper)
		for (const id of [...this.open.keys()]) this.end(id)
	}
}
