import { and, asc, eq, isNull } from 'drizzle-orm'
import {
	type AppContext,
	createKeyedQueue,
	defaultLookup,
	type Lookup,
	type Principal,
	type RuntimeEvent,
	reachesUserbot,
	type TdProxy,
	userbot,
} from 'userbot-gateway/plugin'
import { logOutUserbot, renameUserbot, restartUserbot } from './actions'
import { STATES } from './auth-states'
import { type Row, UserbotClients } from './clients'
import { createUserbot } from './create'
import { userbotErrors } from './errors'
import { createFileCache, type FileCache } from './file-cache'
import type { FileOutcome } from './file-download'
import { readFile } from './files'
import type { LifecycleParts, UserbotLimits } from './parts'

export type { UserbotLimits } from './parts'

import { ProxyAddresses } from './proxy-address'
import type { ProxySettings } from './proxy-settings'
import { removeUserbot } from './removal'
import { UserbotStates } from './states'
import { StatusTracker } from './status-tracker'
import { qrLink, runStep } from './steps'
import { createUploadStore, removeUserbotFolders, type UploadSource, type UploadStore } from './uploads'
import { type UserbotView, userbotView } from './view'

export type { UserbotView } from './view'

/** A log-in step's request takes a few seconds online; offline it never resolves (ARCHITECTURE). */
const STEP_DEADLINE_MS = 20_000

/**
 * The userbot lifecycle, one implementation behind two faces (REST routes and WebSocket
 * commands): create, the log-in steps, log-out, restart, delete, uploads, files, and restoring the
 * clients at start. Every method is scoped to the caller's company; another company's userbot does
 * not exist. What a userbot's client is doing (and whether its delete has begun) is the state
 * owner's (`states`) alone; the operations live in `lifecycle/`.
 */
export class UserbotService {
	readonly states: UserbotStates
	readonly statuses: StatusTracker
	/** Log-outs and restarts of one userbot take turns: never two stops of one client at once. */
	private readonly clientTurns = createKeyedQueue()
	private readonly uploads: UploadStore
	private readonly clients: UserbotClients
	private readonly parts: LifecycleParts
	/** The files route's download cache (FILE_CACHE_BYTES). */
	readonly fileCache: FileCache
	/** Where a proxy may be (docs/operator.md#userbot-proxies): checked when set and at each use. */
	readonly proxyAddresses: ProxyAddresses

	constructor(
		private readonly ctx: AppContext,
		/** The userbots plugin's settings (plugins/userbots/settings.ts): quotas and the files route's limits. */
		limits: UserbotLimits,
		/** Host name resolution for the proxies' servers (tests answer for names without a resolver). */
		lookup: Lookup = defaultLookup,
	) {
		this.states = new UserbotStates(ctx)
		this.statuses = new StatusTracker(ctx)
		this.proxyAddresses = new ProxyAddresses({ allowedHosts: limits.proxyAllowedHosts }, lookup)
		this.clients = new UserbotClients(ctx, this.states, this.proxyAddresses)
		const stepDeadline = Math.min(ctx.config.commandTimeoutMs, STEP_DEADLINE_MS)
		this.parts = {
			ctx,
			states: this.states,
			clients: this.clients,
			statuses: this.statuses,
			stepDeadline,
			limits,
		}
		const { dataDir, uploadMaxBytes } = ctx.config
		this.uploads = createUploadStore(dataDir, {
			maxBytes: uploadMaxBytes,
			quotaBytes: limits.uploadQuotaBytes,
			companyQuotaBytes: limits.companyUploadQuotaBytes,
		})
		this.fileCache = createFileCache(ctx.db, limits.fileCacheBytes, ctx.log)
	}

	/** A runtime event: states to the owner, health to the status tracker. */
	handle(event: RuntimeEvent): void {
		this.states.handle(event)
		this.statuses.handle(event)
	}

	/** Waits until every state and status heard is stored and pushed (tests, shutdown). */
	async drain(): Promise<void> {
		await this.states.drain()
		await this.statuses.drain()
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
		return rows
			.filter((row) => !this.states.isDeleted(row.id) && reachesUserbot(principal, row.id))
			.map((row) => this.view(row))
	}

	async get(principal: Principal, userbotId: number): Promise<UserbotView> {
		return this.view(await this.live(principal, userbotId))
	}

	create(principal: Principal, name: string, proxy?: ProxySettings, client?: string) {
		return createUserbot(this.parts, principal, name, proxy, client)
	}

	async submitPhone(principal: Principal, userbotId: number, phone: string) {
		const request = { _: 'setAuthenticationPhoneNumber', phone_number: phone } as const
		const answer = await runStep(this.parts, await this.find(principal, userbotId), 'phone', request)
		// Stored once TDLib took the number (a code was sent); a finished log-in overwrites it with
		// the account's own number, whichever way it was reached.
		if (answer.authorization_state !== STATES.phone)
			await this.ctx.db
				.update(userbot)
				.set({ phoneNumber: phone })
				.where(and(eq(userbot.id, userbotId), isNull(userbot.deletedAt)))
		return answer
	}

	async submitCode(principal: Principal, userbotId: number, code: string) {
		const row = await this.find(principal, userbotId)
		return runStep(this.parts, row, 'code', { _: 'checkAuthenticationCode', code })
	}

	async submitPassword(principal: Principal, userbotId: number, password: string) {
		const row = await this.find(principal, userbotId)
		return runStep(this.parts, row, 'password', { _: 'checkAuthenticationPassword', password })
	}

	/** Names the new Telegram account an unknown phone number creates (`registerUser`). */
	async submitRegistration(principal: Principal, userbotId: number, firstName: string, lastName: string) {
		const row = await this.find(principal, userbotId)
		return runStep(this.parts, row, 'registration', {
			_: 'registerUser',
			first_name: firstName,
			last_name: lastName,
			disable_notification: false,
		})
	}

	requestQr(principal: Principal, userbotId: number): Promise<{ link: string }> {
		return qrLink(this.parts, () => this.find(principal, userbotId), userbotId)
	}

	async getState(principal: Principal, userbotId: number): Promise<{ authorization_state: string }> {
		const row = await this.find(principal, userbotId)
		return { authorization_state: this.states.current(userbotId, row.authorizationState) }
	}

	/** Deletes the userbot (lifecycle/removal.ts): logged out, closed, folders removed, row kept for audit. */
	async remove(principal: Principal, userbotId: number, client?: string): Promise<void> {
		const row = await this.find(principal, userbotId)
		await removeUserbot(this.parts, principal, row, client)
	}

	/** Renames the userbot (`userbots.manage`); answers its view. */
	async rename(principal: Principal, userbotId: number, name: string, client?: string): Promise<UserbotView> {
		const row = await this.live(principal, userbotId)
		await renameUserbot(this.ctx, principal, row, name, client)
		return this.view({ ...row, name })
	}

	/** Logs the account out of Telegram; a fresh client waits for a phone number (lifecycle/actions.ts). */
	logOut(principal: Principal, userbotId: number, client?: string): Promise<{ authorization_state: string }> {
		return this.clientTurns(String(userbotId), async () =>
			logOutUserbot(this.parts, this.fileCache, principal, await this.live(principal, userbotId), client),
		)
	}

	/** Stops the userbot's TDLib client and starts it again from its database (`userbots.manage`). */
	restart(
		principal: Principal,
		userbotId: number,
		client?: string,
	): Promise<{ authorization_state: string }> {
		return this.clientTurns(String(userbotId), async () =>
			restartUserbot(this.parts, principal, await this.live(principal, userbotId), client),
		)
	}

	/** Stores a media upload of the userbot, within its own and its company's upload quotas. */
	async upload(principal: Principal, userbotId: number, file: UploadSource) {
		const row = await this.live(principal, userbotId)
		const saved = await this.uploads.save(row.companyId, userbotId, file, () => this.liveIds(row.companyId))
		// Deleted while the file was being written: its folders are gone, and so must this be.
		if (this.states.isDeleted(userbotId)) {
			await removeUserbotFolders(this.ctx.config.dataDir, userbotId)
			throw userbotErrors.notFound()
		}
		return saved
	}

	/** Reads a file of the userbot's account (the files route), its client started first if need be. */
	async file(principal: Principal, userbotId: number, fileId: number): Promise<FileOutcome> {
		return readFile(this.parts, this.fileCache, await this.find(principal, userbotId), fileId)
	}

	/** Starts the client of every live userbot from its TDLib database (lifecycle/clients.ts). */
	restore(): Promise<void> {
		return this.clients.restore()
	}

	/** The runtime restarted: what it knew of every client is gone. */
	forgetClients(): void {
		this.states.reset()
	}

	/** Closes the userbot's client and starts it again from `row` (its proxy changed). */
	restartClient(row: Row, logOut = false): Promise<string | undefined> {
		return this.clients.restart(row, logOut)
	}

	/** The columns that store `proxy` for the userbot: its secrets sealed. */
	proxyColumns(userbotId: number, proxy: ProxySettings) {
		return this.clients.proxyColumns(userbotId, proxy)
	}

	/** The stored proxy of `row` as TDLib takes it; undefined without one. */
	proxyOf(row: Row): Promise<TdProxy | undefined> {
		return this.clients.proxyOf(row)
	}

	/** The caller's userbot whose delete has not begun. */
	private async live(principal: Principal, userbotId: number): Promise<Row> {
		const row = await this.find(principal, userbotId)
		this.states.assertLive(userbotId)
		return row
	}

	/** The company's userbots that are neither deleted nor being deleted. */
	private async liveIds(companyId: number): Promise<number[]> {
		const rows = await this.ctx.db
			.select({ id: userbot.id })
			.from(userbot)
			.where(and(eq(userbot.companyId, companyId), isNull(userbot.deletedAt)))
		return rows.map((r) => r.id).filter((id) => !this.states.isDeleted(id))
	}

	/**
	 * The caller's live userbot (who may reach it is the policy's, docs/policy.md: its faces asked
	 * before); the query stays within the caller's company all the same.
	 */
	async find(principal: Principal, userbotId: number): Promise<Row> {
		if (principal.companyId === null || !Number.isSafeInteger(userbotId)) throw userbotErrors.notFound()
		const [row] = await this.ctx.db
			.select()
			.from(userbot)
			.where(
				and(eq(userbot.id, userbotId), eq(userbot.companyId, principal.companyId), isNull(userbot.deletedAt)),
			)
		if (!row) throw userbotErrors.notFound()
		return row
	}

	private view(row: Row): UserbotView {
		return userbotView(row, this.states, this.statuses)
	}
}
