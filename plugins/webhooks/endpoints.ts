import { and, asc, eq, inArray, isNull } from 'drizzle-orm'
import {
	type AppContext,
	badRequest,
	type EventFilterInput,
	HttpError,
	notFound,
	userbot,
} from 'userbot-gateway/plugin'
import type { EndpointFields } from './bodies'
import { generateSecret, sealSecret } from './secrets'
import { checkUrlForm, type Lookup, resolveTarget, type UrlPolicy, UrlRefused } from './ssrf'
import { webhookEndpoint } from './tables'

/** The refusal of a rotation of a Bot API token's endpoint: its bot sets the secret token itself. */
export const KEY_ENDPOINT_ROTATE =
	"This endpoint is a Bot API token's webhook: its secret is the token's secret_token. Call setWebhook again with a new secret_token."

/** How long a rotated-out secret keeps signing beside the new one. */
export const PREVIOUS_SECRET_MS = 24 * 3600 * 1000

type EndpointRow = typeof webhookEndpoint.$inferSelect

export const endpointView = (r: EndpointRow, now: number) => ({
	id: r.id,
	url: r.url,
	description: r.description,
	events: JSON.parse(r.events) as string[],
	userbot_ids: r.userbotIds === null ? null : (JSON.parse(r.userbotIds) as number[]),
	filter: r.filter === null ? null : (JSON.parse(r.filter) as EventFilterInput),
	enabled: r.enabled,
	disabled_at: r.disabledAt === null ? null : new Date(r.disabledAt).toISOString(),
	previous_secret_expires_at:
		r.previousSecretUntil !== null && r.previousSecretUntil > now
			? new Date(r.previousSecretUntil).toISOString()
			: null,
	created_at: new Date(r.createdAt).toISOString(),
	updated_at: new Date(r.updatedAt).toISOString(),
})

/** The endpoint as a delivery needs it, whatever its company (the JetStream outbox's sender). */
export async function endpointForDelivery(db: AppContext['db'], id: number): Promise<EndpointRow | null> {
	const [row] = await db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, id))
	return row ?? null
}

export interface EndpointDeps {
	ctx: AppContext
	/** WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOWED_HOSTS, as the plugin read them. */
	policy: UrlPolicy
	lookup: Lookup
	now: () => number
	/** A company's endpoints changed here. */
	changed(companyId: number): void
}

/** A company's endpoints, as its owner manages them (who may is the routes' policy, docs/policy.md). */
export class Endpoints {
	constructor(private readonly deps: EndpointDeps) {}

	private get db() {
		return this.deps.ctx.db
	}

	/** The company an endpoint belongs to and the userbots it names (`all` for none named): for the guard. */
	async located(id: number): Promise<{ companyId: number; userbots: readonly number[] | 'all' } | null> {
		const [row] = await this.db
			.select({ companyId: webhookEndpoint.companyId, userbotIds: webhookEndpoint.userbotIds })
			.from(webhookEndpoint)
			.where(eq(webhookEndpoint.id, id))
		if (!row) return null
		return {
			companyId: row.companyId,
			userbots: row.userbotIds === null ? 'all' : (JSON.parse(row.userbotIds) as number[]),
		}
	}

	async list(companyId: number) {
		const rows = await this.db
			.select()
			.from(webhookEndpoint)
			.where(eq(webhookEndpoint.companyId, companyId))
			.orderBy(asc(webhookEndpoint.id))
		const now = this.deps.now()
		return rows.map((r) => endpointView(r, now))
	}

	async row(companyId: number, id: number): Promise<EndpointRow> {
		const [row] = await this.db
			.select()
			.from(webhookEndpoint)
			.where(and(eq(webhookEndpoint.id, id), eq(webhookEndpoint.companyId, companyId)))
		if (!row) throw notFound()
		return row
	}

	async view(companyId: number, id: number) {
		return endpointView(await this.row(companyId, id), this.deps.now())
	}

	async create(companyId: number, userId: number, fields: EndpointFields) {
		const url = await this.checkUrl(fields.url as string)
		await this.checkUserbots(companyId, fields.userbotIds)
		const secret = generateSecret()
		const now = this.deps.now()
		const dataKey = this.deps.ctx.config.secrets.dataKey
		const row = await this.db.transaction(async (tx) => {
			const [made] = await tx
				.insert(webhookEndpoint)
				.values({
					companyId,
					url,
					description: fields.description ?? '',
					events: JSON.stringify(fields.events ?? this.deps.ctx.config.updates.defaultKinds),
					userbotIds: fields.userbotIds ? JSON.stringify(fields.userbotIds) : null,
					filter: fields.filter ? JSON.stringify(fields.filter) : null,
					secret: '',
					createdBy: userId,
					createdAt: now,
					updatedAt: now,
				})
				.returning()
			if (!made) throw new Error('webhook endpoint not inserted')
			const sealed = await sealSecret(dataKey, made.id, secret)
			await tx.update(webhookEndpoint).set({ secret: sealed }).where(eq(webhookEndpoint.id, made.id))
			return made
		})
		this.deps.changed(companyId)
		// The secret is shown here once: it is stored sealed and never answered again.
		return { ...endpointView(row, now), secret }
	}

	async update(companyId: number, id: number, fields: EndpointFields) {
		await this.row(companyId, id)
		const set: Partial<typeof webhookEndpoint.$inferInsert> = { updatedAt: this.deps.now() }
		if (fields.url !== undefined) set.url = await this.checkUrl(fields.url)
		if (fields.userbotIds !== undefined) {
			await this.checkUserbots(companyId, fields.userbotIds)
			set.userbotIds = fields.userbotIds === null ? null : JSON.stringify(fields.userbotIds)
		}
		if (fields.events !== undefined) set.events = JSON.stringify(fields.events)
		if (fields.description !== undefined) set.description = fields.description
		if (fields.filter !== undefined)
			set.filter = fields.filter === null ? null : JSON.stringify(fields.filter)
		if (fields.enabled !== undefined) {
			set.enabled = fields.enabled
			// Enabled again by its owner: its failing starts counting afresh.
			if (fields.enabled) Object.assign(set, { disabledAt: null, failingSince: null })
		}
		const [row] = await this.db
			.update(webhookEndpoint)
			.set(set)
			.where(and(eq(webhookEndpoint.id, id), eq(webhookEndpoint.companyId, companyId)))
			.returning()
		if (!row) throw notFound()
		this.deps.changed(companyId)
		return endpointView(row, this.deps.now())
	}

	async remove(companyId: number, id: number): Promise<void> {
		const gone = await this.db
			.delete(webhookEndpoint)
			.where(and(eq(webhookEndpoint.id, id), eq(webhookEndpoint.companyId, companyId)))
			.returning({ id: webhookEndpoint.id })
		if (gone.length === 0) throw notFound()
		this.deps.changed(companyId)
	}

	/**
	 * A new secret, shown once; the one it replaces keeps signing beside it for 24 h. A Bot API token's
	 * endpoint (`key_id`) is refused: its secret is the `secret_token` its bot checks, set by
	 * `setWebhook` (docs/bot-api.md#webhooks), and a secret of ours would break the bot.
	 */
	async rotate(companyId: number, id: number) {
		const row = await this.row(companyId, id)
		if (row.keyId !== null) throw new HttpError(409, { detail: KEY_ENDPOINT_ROTATE, code: 'bot_api_webhook' })
		const secret = generateSecret()
		const now = this.deps.now()
		const sealed = await sealSecret(this.deps.ctx.config.secrets.dataKey, id, secret)
		const [updated] = await this.db
			.update(webhookEndpoint)
			.set({
				secret: sealed,
				previousSecret: row.secret,
				previousSecretUntil: now + PREVIOUS_SECRET_MS,
				updatedAt: now,
			})
			.where(
				and(
					eq(webhookEndpoint.id, id),
					eq(webhookEndpoint.companyId, companyId),
					// Two rotations at once: one wins, the other is told the endpoint is gone.
					eq(webhookEndpoint.secret, row.secret),
				),
			)
			.returning()
		if (!updated) throw notFound()
		return { ...endpointView(updated, now), secret }
	}

	private async checkUrl(raw: string): Promise<string> {
		const policy = this.deps.policy
		try {
			const url = checkUrlForm(raw, policy)
			await resolveTarget(url, policy, this.deps.lookup)
			return url.href
		} catch (err) {
			if (err instanceof UrlRefused) throw badRequest({ url: [err.message] })
			throw err
		}
	}

	private async checkUserbots(companyId: number, ids: readonly number[] | null | undefined): Promise<void> {
		if (!ids || ids.length === 0) {
			if (ids) throw badRequest({ userbot_ids: ['Name at least one userbot, or null for all of them.'] })
			return
		}
		const found = await this.db
			.select({ id: userbot.id })
			.from(userbot)
			.where(and(eq(userbot.companyId, companyId), inArray(userbot.id, [...ids]), isNull(userbot.deletedAt)))
		if (found.length !== ids.length)
			throw badRequest({ userbot_ids: ['Each item must be a userbot of the company.'] })
	}
}
