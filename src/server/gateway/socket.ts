import {
	CLOSE_GOING_AWAY,
	CLOSE_POLICY,
	REASON_EXPIRED,
	REASON_REVOKED,
	REASON_SHUTTING_DOWN,
} from '../../common/wire/close'
import type { Credential, Principal } from '../auth/types'
import type { CommandOutcome } from '../metrics/metrics'
import type { Connection, Running } from './running'

/**
 * Where a socket is in its life:
 * - `open`: commands run, pushes go out;
 * - `expiring`: the credential expired unrenewed: new commands are refused `credentials expired`,
 *   those running finish, then the socket closes with 1008;
 * - `leaving`: the server stops: nothing new runs (nor is answered), then the socket closes with 1001;
 * - `revoked`: the credential was revoked: what runs is being answered `credentials revoked`, and
 *   the socket closes with 1008 in the same turn;
 * - `ended`: closed or closing: nothing more goes out, nothing more is taken.
 */
export type SocketState = 'open' | 'expiring' | 'leaving' | 'revoked' | 'ended'

/** What a socket uses of the world: its transport (the outbox, Bun's socket) and the auth core. */
export interface SocketPorts {
	/** Queues one text frame (the outbox: batched, back-pressured). */
	write(text: string): void
	/** Writes what is queued now, as far as the transport takes it (before a close). */
	flush(): void
	/** Closes the transport with `code` and `reason`; what is still queued is dropped. */
	close(code: number, reason: string): void
	/** The principal as it stands now for `credential`, null if it no longer holds; else a promise. */
	check(credential: Credential): Principal | null | Promise<Principal | null>
	/** A check that went to the database failed: the socket stays as it was. */
	checkFailed(err: unknown, what: string): void
	/** Hears how each command ended and how long it took (the metrics). */
	observe?(action: string, outcome: CommandOutcome, seconds: number): void
}

/** setTimeout's longest delay; a later expiry re-arms. */
const MAX_TIMER_MS = 2 ** 31 - 1

const ANSWERING: ReadonlySet<SocketState> = new Set(['open', 'leaving'])

/**
 * One WebSocket of the command channel and everything that lives as long as it: its credential and
 * principal, its state, the commands it runs, the pushes held while its credential is re-checked, its
 * expiry timer and the signal its commands see. Nothing outside changes any of it but through these
 * methods; the gateway (src/server/gateway/index.ts) wires it to Bun, the connections (connections.ts)
 * index it for pushes and revocations.
 */
export class GatewaySocket implements Connection {
	#state: SocketState = 'open'
	#credential: Credential
	#principal: Principal
	/**
	 * Pushes that came while a credential check went to the database, in order; null when none waits.
	 * They go out, in order, when the check admits the socket, and are dropped when it does not.
	 */
	#held: string[] | null = null
	#expiry: ReturnType<typeof setTimeout> | undefined
	readonly #running = new Set<Running>()
	#runningChars = 0
	readonly #closed = new AbortController()
	readonly #ports: SocketPorts

	constructor(
		credential: Credential,
		principal: Principal,
		ports: SocketPorts,
		/** The client's address (after `TRUSTED_PROXIES`), for the audit log. */
		readonly client?: string,
	) {
		this.#credential = credential
		this.#principal = principal
		this.#ports = ports
	}

	get state(): SocketState {
		return this.#state
	}
	get credential(): Credential {
		return this.#credential
	}
	get principal(): Principal {
		return this.#principal
	}
	/** Aborted when the socket closes: commands that asked for a signal see it. */
	get signal(): AbortSignal {
		return this.#closed.signal
	}
	/** Why a new command is refused now (the state says so), or null. */
	get refusing(): string | null {
		if (this.#state === 'expiring') return REASON_EXPIRED
		if (this.#state === 'revoked') return REASON_REVOKED
		return null
	}
	get leaving(): boolean {
		return this.#state === 'leaving'
	}
	get runningCount(): number {
		return this.#running.size
	}
	get runningChars(): number {
		return this.#runningChars
	}
	/** Pushes waiting for a credential check (tests). */
	get heldCount(): number {
		return this.#held?.length ?? 0
	}

	/** Queues `text`; false (and nothing sent) once the socket has ended. */
	send(text: string): boolean {
		if (this.#state === 'ended') return false
		this.#ports.write(text)
		return true
	}

	/**
	 * Whether the socket may still act: true or false from memory, else a promise (the auth core asks
	 * the database). A socket found dead is ended (a member whose work status stopped allowing work
	 * included); a live one acts as its principal stands now (a member's grants as they are now).
	 */
	admit(): boolean | Promise<boolean> {
		if (!ANSWERING.has(this.#state)) return false
		const credential = this.#credential
		const now = this.#ports.check(credential)
		if (now === null) {
			this.#endForCredential()
			return false
		}
		if (!(now instanceof Promise)) {
			this.#principal = now
			return true
		}
		return now.then((principal) => {
			// Renewed meanwhile: the answer was about a credential the socket no longer uses.
			if (this.#credential !== credential) return ANSWERING.has(this.#state)
			if (principal === null) {
				this.#endForCredential()
				return false
			}
			this.#principal = principal
			return this.#state !== 'ended' && this.#state !== 'revoked'
		})
	}

	/** A company push, after the same check as a command; pushes stay in order while one waits. */
	push(text: string): void {
		if (this.#held) {
			this.#held.push(text)
			return
		}
		const admitted = this.admit()
		if (admitted === true) {
			this.send(text)
			return
		}
		if (admitted === false) return
		const held = [text]
		this.#held = held
		admitted.then(
			(ok) => {
				if (this.#held !== held) return
				this.#held = null
				if (ok) for (const t of held) this.send(t)
			},
			(err) => {
				if (this.#held === held) this.#held = null
				this.#ports.checkFailed(err, 'push dropped')
			},
		)
	}

	/** The socket opened: its expiry armed, its credential checked once more. */
	start(): void {
		this.#armExpiry()
		// A revocation between the upgrade's check and now was announced before the socket was indexed.
		this.#recheck()
	}

	/** A profile change was announced: the credential may still hold; check it again. */
	recheck(): void {
		this.#recheck()
	}

	/**
	 * The socket acts with `credential` (and `principal`) from now on: an `authenticate` frame renewed
	 * it. False, and nothing changes, once it expires, is revoked or has ended.
	 */
	renew(credential: Credential, principal: Principal): boolean {
		if (!ANSWERING.has(this.#state)) return false
		this.#credential = credential
		this.#principal = principal
		this.#armExpiry()
		return true
	}

	/** Expired: refuses what comes, lets what runs finish, closes once nothing runs. */
	expire(): void {
		if (this.#state !== 'open') return
		this.#state = 'expiring'
		this.#held = null
		if (this.#running.size === 0) this.end(CLOSE_POLICY, REASON_EXPIRED)
	}

	/** Revoked: answers what runs with `credentials revoked`, then closes at once. */
	revoke(): void {
		if (this.#state === 'ended' || this.#state === 'revoked') return
		this.#state = 'revoked'
		for (const running of [...this.#running]) running.end(REASON_REVOKED)
		this.end(CLOSE_POLICY, REASON_REVOKED)
	}

	/** The server is stopping: nothing new runs; the socket closes with 1001 once nothing runs. */
	goAway(): void {
		if (this.#state === 'ended' || this.#state === 'revoked') return
		this.#state = 'leaving'
		if (this.#running.size === 0) this.end(CLOSE_GOING_AWAY, REASON_SHUTTING_DOWN)
	}

	/**
	 * Writes what is queued, then closes with `code` and `reason`; nothing more goes out after. False
	 * when the socket had already ended (a second end changes nothing).
	 */
	end(code: number, reason: string): boolean {
		if (this.#state === 'ended') return false
		// Writing may find the client does not read (the outbox then ends the socket with 1013).
		this.#ports.flush()
		if (this.state === 'ended') return false
		this.#stop()
		this.#ports.close(code, reason)
		return true
	}

	/** The transport closed (either side): what still runs is settled without a reply. */
	closed(): void {
		this.#stop()
		for (const running of [...this.#running]) running.drop()
		this.#closed.abort(new Error('connection closed'))
	}

	/** A command was accepted: it runs, holding `chars` of frame, until `answered`. */
	started(running: Running, chars: number): void {
		this.#running.add(running)
		this.#runningChars += chars
	}

	/** A command ended (`reply` null: dropped): an expiring or leaving socket closes once none runs. */
	answered(running: Running, chars: number, reply: string | null): void {
		if (!this.#running.delete(running)) return
		this.#runningChars -= chars
		if (reply !== null) this.send(reply)
		if (this.#running.size > 0) return
		if (this.#state === 'leaving') this.end(CLOSE_GOING_AWAY, REASON_SHUTTING_DOWN)
		else if (this.#state === 'expiring') this.end(CLOSE_POLICY, REASON_EXPIRED)
	}

	observe(action: string, outcome: CommandOutcome, seconds: number): void {
		this.#ports.observe?.(action, outcome, seconds)
	}

	#stop(): void {
		this.#state = 'ended'
		this.#held = null
		clearTimeout(this.#expiry)
	}

	#endForCredential(): void {
		if (this.#credential.expiresAt <= Date.now()) this.expire()
		else this.revoke()
	}

	#recheck(): void {
		const admitted = this.admit()
		if (admitted instanceof Promise) admitted.catch((err) => this.#ports.checkFailed(err, 'check failed'))
	}

	#armExpiry(): void {
		clearTimeout(this.#expiry)
		if (this.#state === 'ended') return
		const left = this.#credential.expiresAt - Date.now()
		if (left <= 0) this.expire()
		else this.#expiry = setTimeout(() => this.#armExpiry(), Math.min(left, MAX_TIMER_MS))
	}
}
