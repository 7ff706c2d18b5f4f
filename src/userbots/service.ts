import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm'
import { userbot } from '../../db/schema'
import { writeAudit } from '../audit/log'
import { keyReachesUserbot } from '../auth/key-scopes'
import { allows } from '../auth/permissions'
import type { Principal } from '../auth/types'
import type { AppContext } from '../context'
import { createKeyedQueue } from '../keyed-queue'
import type { TdProxy } from '../telegram/proxy'
import { TdError, type TdMethod, type TdRequest } from '../telegram/types'
import { assertStepAllowed, LIFECYCLE_METHODS, STATES, type Step } from './auth-states'
import { UserbotError, userbotErrors } from './errors'
import { createFileCache, type FileCache } from './file-cache'
import { type FileInvoke, type FileOutcome, fetchFile } from './file-download'
import {
	generateDatabaseKey,
	openDatabaseKey,
	openProxySecret,
	sealDatabaseKey,
	sealProxySecret,
} from './key-crypto'
import { type ProxySettings, type ProxyView, proxyView, toTdProxy } from './proxy-settings'
import { callTelegram, mapRuntimeError } from './runtime-calls'
import { StateTracker } from './state-tracker'
import { StatusTracker } from './status-tracker'
import { stopDeletedClient } from './stop-deleted'
import {
	createUploadStore,
	removeUploads,
	removeUserbotFolders,
	type UploadSource,
	type UploadStore,
} from './uploads'

export interface UserbotView {
	id: number
	name: string
	phone_number: string | null
	authorization_state: string
	/** The account's health (docs/flood-and-health.md); `status_until` while it cools down. */
	status: string
	status_until?: number
	/** Its proxy without the password or secret, and the last health check (docs/operator.md#userbot-proxies). */
	proxy: ProxyView | null
}

type Row = typeof userbot.$inferSelect

/** A log-in step's request takes a few seconds online; offline it never resolves (ARCHITECTURE). */
const STEP_DEADLINE_MS = 20_000
/** How long a step waits, after TDLib said Ok, for the state change it caused. */
const SETTLE_MS = 3_000
const RESTORE_CONCURRENCY = 64

/** What a company and a userbot may take: the userbots plugin's settings, read when it loads. */
export interface UserbotLimits {
	uploadQuotaBytes: number
	companyUploadQuotaBytes: number
	fileMaxBytes: number
	fileDownloadWaitMs: number
	fileCacheBytes: number
	companyUserbotLimit: number
}

/**
 * The userbot lifecycle, one implementation behind two faces (REST routes and WebSocket
 * commands): create, the log-in steps, delete, uploads, and restoring the clients at start.
 * Every method is scoped to the caller's company; another company's userbot does not exist.
 */
export class UserbotService {
	readonly tracker: StateTracker
	readonly statuses: StatusTracker
	private readonly starting = new Map<number, Promise<string>>()
	/** Log-outs and restarts of one userbot take turns: never two stops of one client at once. */
	private readonly clientTurns = createKeyedQueue()
	/**
	 * Userbots deleted by this process, from the moment `remove` begins: no client of theirs may
	 * start again (a step or a restore that read the row just before the delete is refused), and
	 * their clients' states are neither stored nor pushed. Rows are never reused, so ids stay here.
	 */
	private readonly deleted = new Set<number>()
	private readonly stepDeadline: number
	private readonly uploads: UploadStore
	/** The files route's download cache (FILE_CACHE_BYTES). */
	readonly fileCache: FileCache

	constructor(
		private readonly ctx: AppContext,
		/** The userbots plugin's settings (plugins/userbots/settings.ts): quotas and the files route's limits. */
		private readonly limits: UserbotLimits,
	) {
		this.tracker = new StateTracker(ctx, (id) => this.deleted.has(id))
		this.statuses = new StatusTracker(ctx)
		this.stepDeadline = Math.min(ctx.config.commandTimeoutMs, STEP_DEADLINE_MS)
		this.uploads = createUploadStore(ctx.config.dataDir, {
			maxBytes: ctx.config.uploadMaxBytes,
			quotaBytes: limits.uploadQuotaBytes,
			companyQuotaBytes: limits.companyUploadQuotaBytes,
		})
		this.fileCache = createFileCache(ctx.db, limits.fileCacheBytes, ctx.log)
	}

	async list(principal: Principal): Promise<UserbotView[]> {
		if (principal.companyId === null) return []
		const rows = await this.ctx.db
			.select()
			.from(userbot)
			.where(and(eq(userbot.companyId, principal.companyId), isNull(userbot.deletedAt)))
			.orderBy(asc(userbot.id))
		// One whose delete has begun is gone already, though its row is written last.
		// An API key sees only the userbots it reaches.
		const key = principal.key
		return rows
			.filter((row) => !this.deleted.has(row.id) && (!key || keyReachesUserbot(key, row.id)))
			.map((row) => this.view(row))
	}

	async get(principal: Principal, userbotId: number): Promise<UserbotView> {
		const row = await this.find(principal, userbotId)
		if (this.deleted.has(userbotId)) throw userbotErrors.notFound()
		return this.view(row)
	}

	/**
	 * Adds a userbot and starts its client; with `proxy`, its very first connection goes through it.
	 * `client`: the caller's address, for the audit line.
	 */
	async create(
		principal: Principal,
		name: string,
		proxy?: ProxySettings,
		client?: string,
	): Promise<{ id: number; authorization_state: string }> {
		const companyId = principal.companyId
		if (companyId === null) throw userbotErrors.noCompany()
		if (!allows(principal, 'userbots.manage')) throw userbotErrors.permissionDenied()
		this.requireRuntime()
		const key = generateDatabaseKey()
		const { companyUserbotLimit } = this.limits
		const dataKey = this.ctx.config.secrets.dataKey
		const id = await this.ctx.db.transaction(async (tx) => {
			// Counted in the insert's own transaction, which holds the write lock from its start
			// (BEGIN IMMEDIATE; and this process's writes take turns): concurrent creates cannot all
			// pass a count made before the first of them was inserted.
			const [live] = await tx
				.select({ n: count() })
				.from(userbot)
				.where(and(eq(userbot.companyId, companyId), isNull(userbot.deletedAt)))
			if ((live?.n ?? 0) >= companyUserbotLimit) throw userbotErrors.limitReached(companyUserbotLimit)
			const [row] = await tx
				.insert(userbot)
				.values({ companyId, name, encryptionKey: '', createdBy: principal.userId })
				.returning({ id: userbot.id })
			if (!row) throw new Error('insert returned no row')
			const sealed = await sealDatabaseKey(dataKey, row.id, key)
			await tx
				.update(userbot)
				.set({ encryptionKey: sealed, ...(proxy ? await this.proxyColumns(row.id, proxy) : {}) })
				.where(eq(userbot.id, row.id))
			return row.id
		})
		this.tracker.remember(id, companyId)
		try {
			await this.start(id, key, false, proxy && toTdProxy(proxy))
		} catch (err) {
			// Nothing ran: leave no client, no row and no folder behind. A start cut short by the
			// supervisor dying is kept for the next child, which would start it again: forget it.
			void this.ctx.runtime?.stopClient(id, { logOut: false, removeData: true }).catch(() => undefined)
			await this.ctx.db.delete(userbot).where(eq(userbot.id, id))
			await removeUserbotFolders(this.ctx.config.dataDir, id)
			this.tracker.forget(id)
			throw err
		}
		const state = this.currentState(id, STATES.parameters)
		await this.ctx.db.update(userbot).set({ authorizationState: state }).where(eq(userbot.id, id))
		// Written once the client runs: a create undone because its client could not start leaves no line.
		await writeAudit(this.ctx.db, principal, {
			action: 'userbot.created',
			target: `userbot:${id}`,
			detail: { name, proxy: proxy?.shown.type ?? null },
			client,
		})
		this.ctx.log.info('userbot created', { userbotId: id, companyId, by: principal.userId })
		return { id, authorization_state: state }
	}

	submitPhone(principal: Principal, userbotId: number, phone: string) {
		return this.step(principal, userbotId, 'phone', {
			_: 'setAuthenticationPhoneNumber',
			phone_number: phone,
		}).then(async (answer) => {
			// Stored once TDLib took the number (a code was sent); a finished log-in overwrites it with
			// the account's own number, whichever way it was reached.
			if (answer.authorization_state !== STATES.phone)
				await this.ctx.db
					.update(userbot)
					.set({ phoneNumber: phone })
					.where(and(eq(userbot.id, userbotId), isNull(userbot.deletedAt)))
			return answer
		})
	}

	submitCode(principal: Principal, userbotId: number, code: string) {
		return this.step(principal, userbotId, 'code', { _: 'checkAuthenticationCode', code })
	}

	submitPassword(principal: Principal, userbotId: number, password: string) {
		return this.step(principal, userbotId, 'password', { _: 'checkAuthenticationPassword', password })
	}

	/** Names the new Telegram account an unknown phone number creates (`registerUser`). */
	submitRegistration(principal: Principal, userbotId: number, firstName: string, lastName: string) {
		return this.step(principal, userbotId, 'registration', {
			_: 'registerUser',
			first_name: firstName,
			last_name: lastName,
			disable_notification: false,
		})
	}

	async requestQr(principal: Principal, userbotId: number): Promise<{ link: string }> {
		const shown = (): string | null => {
			const link = this.tracker.detail(userbotId)?.link
			return this.tracker.state(userbotId) === STATES.otherDevice && typeof link === 'string' ? link : null
		}
		const existing = shown()
		if (existing) {
			await this.find(principal, userbotId)
			return { link: existing }
		}
		await this.step(principal, userbotId, 'qr', { _: 'requestQrCodeAuthentication', other_user_ids: [] })
		const link = shown()
		if (!link) throw new UserbotError(502, 'Telegram sent no log-in link; try again', 'no_link')
		return { link }
	}

	async getState(principal: Principal, userbotId: number): Promise<{ authorization_state: string }> {
		const row = await this.find(principal, userbotId)
		return { authorization_state: this.currentState(userbotId, row.authorizationState) }
	}

	/**
	 * Logs out of Telegram (when logged in), closes the client, removes its folders, and marks the
	 * row deleted (it stays, for audit). Final at once in this process: from its first line no step,
	 * upload, restore or command may use the userbot. Space comes back before anything is written:
	 * on a full disk the row's write can only succeed once the folders are gone. When that write
	 * fails all the same, the answer says so, and a repeated DELETE finishes the job.
	 */
	async remove(principal: Principal, userbotId: number, client?: string): Promise<void> {
		const row = await this.find(principal, userbotId)
		// After the lookup: another company's userbot stays a 404, for a member as for anyone.
		if (!allows(principal, 'userbots.manage')) throw userbotErrors.permissionDenied()
		const again = this.deleted.has(userbotId)
		this.deleted.add(userbotId)
		this.ctx.userbots.markDeleted(userbotId)
		// The closing states still reach the company's sockets.
		this.tracker.remember(userbotId, row.companyId)
		const { dataDir } = this.ctx.config
		await removeUploads(dataDir, userbotId)
		const runtime = this.ctx.runtime
		if (runtime && !again)
			await stopDeletedClient({
				runtime,
				log: this.ctx.log,
				userbotId,
				authorized: this.currentState(userbotId, row.authorizationState) === STATES.ready,
				start: () => this.ensureClient(row, true),
				deadlineMs: this.stepDeadline,
			})
		await removeUserbotFolders(dataDir, userbotId)
		this.tracker.forget(userbotId)
		this.statuses.forget(userbotId)
		// Its updates, and every subscription to them, end with it.
		this.ctx.updates.forget(userbotId)
		await this.ctx.db.transaction(async (tx) => {
			await tx
				.update(userbot)
				.set({ deletedAt: Date.now(), deletedBy: principal.userId })
				.where(eq(userbot.id, userbotId))
			// A repeated DELETE finishing the job of one whose write failed is the same deletion.
			if (row.deletedAt === null && !again)
				await writeAudit(tx, principal, {
					action: 'userbot.deleted',
					target: `userbot:${userbotId}`,
					detail: { name: row.name },
					client,
				})
		})
		this.ctx.log.info('userbot deleted', { userbotId, by: principal.userId })
	}

	/** Renames the userbot (`userbots.manage`); answers its view. */
	async rename(principal: Principal, userbotId: number, name: string, client?: string): Promise<UserbotView> {
		const row = await this.manageable(principal, userbotId)
		await this.ctx.db.transaction(async (tx) => {
			await tx
				.update(userbot)
				.set({ name })
				.where(and(eq(userbot.id, userbotId), isNull(userbot.deletedAt)))
			await writeAudit(tx, principal, {
				action: 'userbot.renamed',
				target: `userbot:${userbotId}`,
				detail: { name, previous: row.name },
				client,
			})
		})
		return this.view({ ...row, name })
	}

	/**
	 * Ends a logged-in account's Telegram session (TDLib's `logOut`, its TDLib folders removed, as
	 * TDLib does after `authorizationStateClosed`), then starts a fresh client, which waits for a
	 * phone number: the userbot, its id, name, proxy and uploads stay.
	 */
	logOut(principal: Principal, userbotId: number, client?: string): Promise<{ authorization_state: string }> {
		return this.clientTurns(String(userbotId), async () => {
			const row = await this.manageable(principal, userbotId)
			const state = this.currentState(userbotId, row.authorizationState)
			if (state !== STATES.ready)
				throw new UserbotError(400, `userbot is not logged in (state: ${state})`, 'wrong_state')
			const started = await this.restartClient(row, true)
			await this.ctx.db
				.update(userbot)
				.set({ phoneNumber: null })
				.where(and(eq(userbot.id, userbotId), isNull(userbot.deletedAt)))
			await writeAudit(this.ctx.db, principal, {
				action: 'userbot.logged_out',
				target: `userbot:${userbotId}`,
				client,
			})
			this.ctx.log.info('userbot logged out', { userbotId, by: principal.userId })
			return { authorization_state: this.settled(userbotId, started ?? STATES.phone) }
		})
	}

	/** Stops the userbot's TDLib client and starts it again from its database (`userbots.manage`). */
	restart(
		principal: Principal,
		userbotId: number,
		client?: string,
	): Promise<{ authorization_state: string }> {
		return this.clientTurns(String(userbotId), async () => {
			const row = await this.manageable(principal, userbotId)
			const started = await this.restartClient(row)
			await writeAudit(this.ctx.db, principal, {
				action: 'userbot.restarted',
				target: `userbot:${userbotId}`,
				client,
			})
			return { authorization_state: this.settled(userbotId, started ?? row.authorizationState) }
		})
	}

	/**
	 * The state of a client just started: the tracker's, unless what it last saw is the old client's
	 * closing (its events and the start's reply may come by different ways), then the start's reply.
	 */
	private settled(userbotId: number, started: string): string {
		const now = this.currentState(userbotId, started)
		return now === STATES.loggingOut || now === STATES.closing || now === STATES.closed ? started : now
	}

	/** The caller's userbot, when the caller may manage it: another company's stays a 404 first. */
	private async manageable(principal: Principal, userbotId: number): Promise<Row> {
		const row = await this.find(principal, userbotId)
		if (this.deleted.has(userbotId)) throw userbotErrors.notFound()
		if (!allows(principal, 'userbots.manage')) throw userbotErrors.permissionDenied()
		return row
	}

	/** Stores a media upload of the userbot, within its own and its company's upload quotas. */
	async upload(principal: Principal, userbotId: number, file: UploadSource) {
		const row = await this.find(principal, userbotId)
		if (this.deleted.has(userbotId)) throw userbotErrors.notFound()
		const saved = await this.uploads.save(row.companyId, userbotId, file, () => this.liveIds(row.companyId))
		// Deleted while the file was being written: its folders are gone, and so must this be.
		if (this.deleted.has(userbotId)) {
			await removeUserbotFolders(this.ctx.config.dataDir, userbotId)
			throw userbotErrors.notFound()
		}
		return saved
	}

	/** Reads a file of the userbot's account (the files route), its client started first if need be. */
	async file(principal: Principal, userbotId: number, fileId: number): Promise<FileOutcome> {
		const row = await this.find(principal, userbotId)
		const runtime = this.requireRuntime()
		await this.ensureClient(row)
		const { dataDir, commandTimeoutMs } = this.ctx.config
		const { fileMaxBytes, fileDownloadWaitMs } = this.limits
		// TDLib's own wait may be longer than ours: a download left running is still TDLib's to finish.
		const timeoutMs = Math.max(commandTimeoutMs, fileDownloadWaitMs)
		const invoke: FileInvoke = (request, label) => {
			if (request._ !== LIFECYCLE_METHODS[label]) throw new Error(`${label} sends ${request._}`)
			return runtime.invoke(userbotId, request, { timeoutMs, label })
		}
		// Evicted by TDLib itself, so that its `getFile` stays true; an id it no longer knows is gone already.
		const evict = (victim: number) =>
			invoke({ _: 'deleteFile', file_id: victim }, 'userbots:evict').then(
				() => undefined,
				(err) => {
					if (!(err instanceof TdError && err.code === 400)) throw err
				},
			)
		const cache = this.fileCache
		return fetchFile(invoke, userbotId, fileId, {
			dataDir,
			maxBytes: fileMaxBytes,
			waitMs: fileDownloadWaitMs,
			cache: { fits: cache.fits, admit: (id, size) => cache.admit(userbotId, id, size, evict) },
			remote: this.ctx.config.bus !== undefined,
		})
	}

	/**
	 * Starts the client of every live userbot from its TDLib database (logged-in ones first), so
	 * after a restart they run again without a new log-in. Failures are logged, never thrown.
	 */
	async restore(): Promise<void> {
		if (!this.ctx.runtime) return
		const started = Date.now()
		const rows = await this.ctx.db
			.select()
			.from(userbot)
			.where(isNull(userbot.deletedAt))
			.orderBy(desc(sql`${userbot.authorizationState} = ${STATES.ready}`), asc(userbot.id))
		let failed = 0
		let next = 0
		const worker = async () => {
			for (let row = rows[next++]; row; row = rows[next++]) {
				// The rows were read before; one may have been deleted since (restore goes on behind).
				if (this.deleted.has(row.id)) continue
				this.tracker.remember(row.id, row.companyId)
				try {
					await this.ensureClient(row)
				} catch (err) {
					if (this.deleted.has(row.id)) continue
					failed++
					this.ctx.log.warn('could not restore a userbot', { userbotId: row.id, error: String(err) })
				}
			}
		}
		await Promise.all(Array.from({ length: RESTORE_CONCURRENCY }, worker))
		this.ctx.log.info('userbots restored', { count: rows.length, failed, ms: Date.now() - started })
	}

	/** The runtime restarted: what it knew of every client is gone. */
	forgetClients(): void {
		this.tracker.reset()
	}

	private async step(principal: Principal, userbotId: number, step: Step, request: TdRequest<TdMethod>) {
		// The method a shard on the bus allows this step (`LIFECYCLE_METHODS`), and no other.
		if (request._ !== LIFECYCLE_METHODS[`userbots:${step}`])
			throw new Error(`userbots:${step} sends ${request._}`)
		// Another company's (or no) userbot is 404 before anything says Telegram is not configured.
		const row = await this.find(principal, userbotId)
		const runtime = this.requireRuntime()
		await this.ensureClient(row)
		assertStepAllowed(step, this.currentState(userbotId, row.authorizationState))
		const seq = this.tracker.seq(userbotId)
		try {
			await callTelegram(runtime, userbotId, request, this.stepDeadline, `userbots:${step}`)
		} catch (err) {
			// Cut short by a delete (TDLib's `500 Request aborted`, or no client any more).
			if (this.deleted.has(userbotId)) throw userbotErrors.notFound()
			throw err
		}
		await this.tracker.next(userbotId, seq, SETTLE_MS)
		if (this.deleted.has(userbotId)) throw userbotErrors.notFound()
		return { authorization_state: this.currentState(userbotId, row.authorizationState) }
	}

	/**
	 * Closes the userbot's client and starts it again from `row` (its proxy changed): the proxy is
	 * applied before a client connects, never swapped under a running one.
	 */
	async restartClient(row: Row, logOut = false): Promise<string | undefined> {
		const runtime = this.requireRuntime()
		if (this.deleted.has(row.id)) throw userbotErrors.notFound()
		try {
			// Logged out, TDLib's database is the old account's: removed, so the new client starts empty.
			await runtime.stopClient(row.id, { logOut, removeData: logOut })
		} catch (err) {
			throw mapRuntimeError(err)
		}
		return this.ensureClient(row)
	}

	/** The columns that store `proxy` for the userbot: its secrets sealed. */
	async proxyColumns(userbotId: number, proxy: ProxySettings) {
		const hidden = Object.keys(proxy.hidden).length === 0 ? null : JSON.stringify(proxy.hidden)
		return {
			proxy: JSON.stringify(proxy.shown),
			proxySecret:
				hidden === null ? null : await sealProxySecret(this.ctx.config.secrets.dataKey, userbotId, hidden),
			proxyCheck: null,
		}
	}

	/** The stored proxy of `row` as TDLib takes it; undefined without one. */
	async proxyOf(row: Row): Promise<TdProxy | undefined> {
		if (row.proxy === null) return undefined
		try {
			const hidden =
				row.proxySecret === null
					? {}
					: JSON.parse(await openProxySecret(this.ctx.config.secrets.dataKey, row.id, row.proxySecret))
			return toTdProxy({ shown: JSON.parse(row.proxy), hidden })
		} catch {
			throw new UserbotError(500, 'The proxy settings of this userbot cannot be read.', 'proxy_unreadable')
		}
	}

	/** Starts the userbot's client unless it runs; a deleted userbot's only for `remove` (to log out). */
	private async ensureClient(row: Row, removing = false): Promise<string | undefined> {
		if (this.deleted.has(row.id) && !removing) throw userbotErrors.notFound()
		const runtime = this.requireRuntime()
		const known = runtime.authorizationState(row.id)
		if (known !== undefined && known !== STATES.closed) return known
		let key: string
		try {
			key = await openDatabaseKey(this.ctx.config.secrets.dataKey, row.id, row.encryptionKey)
		} catch {
			throw new UserbotError(500, 'The database key of this userbot cannot be read.', 'key_unreadable')
		}
		return this.start(row.id, key, removing, await this.proxyOf(row))
	}

	private start(
		userbotId: number,
		encryptionKey: string,
		removing = false,
		proxy?: TdProxy,
	): Promise<string> {
		const runtime = this.requireRuntime()
		// Checked again here, after the awaits of `ensureClient`: the start message leaves at once.
		if (this.deleted.has(userbotId) && !removing) return Promise.reject(userbotErrors.notFound())
		const pending = this.starting.get(userbotId)
		if (pending) return pending
		const started = runtime
			.startClient(userbotId, proxy ? { encryptionKey, proxy } : { encryptionKey })
			.then((state) => {
				if (!this.deleted.has(userbotId)) this.tracker.note(userbotId, state)
				return state
			})
			.catch((err: unknown) => {
				throw mapRuntimeError(err)
			})
			.finally(() => this.starting.delete(userbotId))
		this.starting.set(userbotId, started)
		return started
	}

	/** The company's userbots that are neither deleted nor being deleted. */
	private async liveIds(companyId: number): Promise<number[]> {
		const rows = await this.ctx.db
			.select({ id: userbot.id })
			.from(userbot)
			.where(and(eq(userbot.companyId, companyId), isNull(userbot.deletedAt)))
		return rows.map((r) => r.id).filter((id) => !this.deleted.has(id))
	}

	private requireRuntime() {
		if (!this.ctx.runtime) throw userbotErrors.notConfigured()
		return this.ctx.runtime
	}

	/** The caller's live userbot: another company's, or one a key does not reach, is a 404. */
	async find(principal: Principal, userbotId: number): Promise<Row> {
		if (principal.companyId === null || !Number.isSafeInteger(userbotId)) throw userbotErrors.notFound()
		if (principal.key && !keyReachesUserbot(principal.key, userbotId)) throw userbotErrors.notFound()
		const [row] = await this.ctx.db
			.select()
			.from(userbot)
			.where(
				and(eq(userbot.id, userbotId), eq(userbot.companyId, principal.companyId), isNull(userbot.deletedAt)),
			)
		if (!row) throw userbotErrors.notFound()
		return row
	}

	private currentState(userbotId: number, stored: string): string {
		return this.tracker.state(userbotId) ?? this.ctx.runtime?.authorizationState(userbotId) ?? stored
	}

	private view(row: Row): UserbotView {
		const health = this.statuses.current(row.id) ?? {
			status: row.status,
			until: row.statusUntil ?? undefined,
		}
		const view: UserbotView = {
			id: row.id,
			name: row.name,
			phone_number: row.phoneNumber,
			authorization_state: this.currentState(row.id, row.authorizationState),
			status: health.status,
			proxy: proxyView(row.proxy, row.proxySecret, row.proxyCheck),
		}
		if (health.status === 'cooling_down' && health.until !== undefined) view.status_until = health.until
		return view
	}
}
