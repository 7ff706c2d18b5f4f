import { and, desc, eq, gt, isNotNull, isNull, or, sql } from 'drizzle-orm'
import {
	type AppContext,
	apiKey,
	KEY_WEBHOOK_EVENT,
	type KeyWebhookOwner,
	KeyWebhookRefused,
	type KeyWebhookSetting,
	type KeyWebhookState,
	type KeyWebhooks,
} from 'userbot-gateway/plugin'
import { sealSecret } from './secrets'
import { checkUrlForm, type Lookup, resolveTarget, type UrlPolicy, UrlRefused } from './ssrf'
import { webhookDelivery, webhookEndpoint } from './tables'

/**
 * The endpoints API keys make for themselves (src/server/updates/key-webhooks.ts: the Bot API face's
 * setWebhook). Each is a row of `webhook_endpoint` like any other: of the key's company, naming the
 * key's one userbot alone (so the scope rule of the routes holds for it as for every endpoint: a
 * scoped key's endpoints reach only its userbots), wanting the one event `bot_api.update`, whose
 * `data.key_id` must be its key (source.ts). Its sealed secret carries the body's shape: `tgbot:`
 * and the secret token (attempt.ts sends `data.update` as the body, with the token's header), so
 * nothing else of the outbox changes: the claim, both outboxes, the retries, the SSRF rules, replay.
 */
export const TELEGRAM_SHAPE = 'tgbot:'

export interface KeyEndpointDeps {
	ctx: AppContext
	policy: UrlPolicy
	lookup: Lookup
	now: () => number
	changed(companyId: number): void
}

type Db = AppContext['db']

export function keyEndpoints(deps: KeyEndpointDeps): KeyWebhooks {
	const db = deps.ctx.db
	return {
		set: (owner, setting, dropPending) => setKeyEndpoint(deps, owner, setting, dropPending),
		async remove(keyId: number) {
			const gone = await db
				.delete(webhookEndpoint)
				.where(eq(webhookEndpoint.keyId, keyId))
				.returning({ companyId: webhookEndpoint.companyId })
			for (const g of gone) deps.changed(g.companyId)
		},
		get: (keyId) => keyEndpointState(db, keyId),
		list: () => liveKeyEndpoints(db, deps.now()),
	}
}

/** The URL as setWebhook may name it (the SSRF rules of every endpoint), or our refusal. */
async function checkUrl(deps: KeyEndpointDeps, raw: string): Promise<string> {
	try {
		const url = checkUrlForm(raw, deps.policy)
		await resolveTarget(url, deps.policy, deps.lookup)
		return url.href
	} catch (err) {
		if (err instanceof UrlRefused) throw new KeyWebhookRefused(err.message)
		throw err
	}
}

/** setWebhook: the key's endpoint made or changed in place, its secret sealed with its id. */
async function setKeyEndpoint(
	deps: KeyEndpointDeps,
	owner: KeyWebhookOwner,
	setting: KeyWebhookSetting,
	dropPending: boolean,
): Promise<void> {
	const { ctx } = deps
	const url = await checkUrl(deps, setting.url)
	const secret = `${TELEGRAM_SHAPE}${setting.secretToken ?? ''}`
	const dataKey = ctx.config.secrets.dataKey
	const at = deps.now()
	await ctx.db.transaction(async (tx) => {
		const [had] = await tx
			.select({ id: webhookEndpoint.id })
			.from(webhookEndpoint)
			.where(eq(webhookEndpoint.keyId, owner.keyId))
		const fields = {
			url,
			events: JSON.stringify([KEY_WEBHOOK_EVENT]),
			userbotIds: JSON.stringify([owner.userbotId]),
			keySettings: setting.settings,
			enabled: true,
			disabledAt: null,
			failingSince: null,
			previousSecret: null,
			previousSecretUntil: null,
			updatedAt: at,
		}
		let id = had?.id
		if (id === undefined) {
			const [made] = await tx
				.insert(webhookEndpoint)
				.values({
					...fields,
					companyId: owner.companyId,
					description: 'Bot API webhook (setWebhook)',
					secret: '',
					keyId: owner.keyId,
					createdAt: at,
				})
				.returning({ id: webhookEndpoint.id })
			if (!made) throw new Error('key webhook endpoint not inserted')
			id = made.id
		} else {
			await tx.update(webhookEndpoint).set(fields).where(eq(webhookEndpoint.id, id))
			if (dropPending)
				await tx
					.delete(webhookDelivery)
					.where(and(eq(webhookDelivery.endpointId, id), eq(webhookDelivery.status, 'pending')))
		}
		const sealed = await sealSecret(dataKey, id, secret)
		await tx.update(webhookEndpoint).set({ secret: sealed }).where(eq(webhookEndpoint.id, id))
	})
	deps.changed(owner.companyId)
}

/** getWebhookInfo: the key's endpoint, its pending deliveries and its last failed attempt. */
async function keyEndpointState(db: Db, keyId: number): Promise<KeyWebhookState | null> {
	const [row] = await db.select().from(webhookEndpoint).where(eq(webhookEndpoint.keyId, keyId))
	if (!row) return null
	const [count] = await db
		.select({ n: sql<number>`count(*)` })
		.from(webhookDelivery)
		.where(and(eq(webhookDelivery.endpointId, row.id), eq(webhookDelivery.status, 'pending')))
	// The most recent attempt that did not deliver: a refusal, a timeout, an answer not 2xx.
	const [failed] = await db
		.select({
			at: webhookDelivery.lastAt,
			code: webhookDelivery.lastCode,
			error: webhookDelivery.lastError,
		})
		.from(webhookDelivery)
		.where(
			and(
				eq(webhookDelivery.endpointId, row.id),
				isNotNull(webhookDelivery.lastAt),
				or(
					isNotNull(webhookDelivery.lastError),
					sql`${webhookDelivery.lastCode} < 200 OR ${webhookDelivery.lastCode} >= 300`,
				),
			),
		)
		.orderBy(desc(webhookDelivery.lastAt))
		.limit(1)
	return {
		url: row.url,
		settings: row.keySettings ?? '{}',
		pending: Number(count?.n ?? 0),
		lastErrorAt: failed?.at ?? null,
		lastError: failed ? (failed.error ?? `Wrong response from the webhook: ${failed.code ?? 'none'}`) : null,
	}
}

/** The enabled endpoints of keys neither revoked nor expired at `now`: whose updates are pushed. */
async function liveKeyEndpoints(db: Db, now: number) {
	const rows = await db
		.select({
			keyId: webhookEndpoint.keyId,
			userbotIds: webhookEndpoint.userbotIds,
			settings: webhookEndpoint.keySettings,
		})
		.from(webhookEndpoint)
		.innerJoin(apiKey, eq(apiKey.id, webhookEndpoint.keyId))
		.where(
			and(
				eq(webhookEndpoint.enabled, true),
				isNull(apiKey.revokedAt),
				or(isNull(apiKey.expiresAt), gt(apiKey.expiresAt, now)),
			),
		)
	return rows.flatMap((r) => {
		const [userbotId] = JSON.parse(r.userbotIds ?? '[]') as number[]
		return r.keyId === null || userbotId === undefined
			? []
			: [{ keyId: r.keyId, userbotId, settings: r.settings ?? '{}' }]
	})
}
