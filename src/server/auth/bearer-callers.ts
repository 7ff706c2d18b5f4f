import { type ApiKeys, type KeyRecord, keyFamily } from './api-keys'
import { type CallerOutcome, tokenInvalid } from './caller-outcome'
import type { Families } from './families'
import type { PrincipalMaker } from './principals'
import type { Profile, Profiles } from './profiles'
import type { TokenSigner } from './tokens'
import type { Credential } from './types'

/** A key without an expiry: its credential never expires (the expiry timer re-arms every ~24 days). */
const NEVER = Number.MAX_SAFE_INTEGER

/** The callers of a header's credential: an API key, or a bearer access token. */
export function createBearerCallers(deps: {
	signer: TokenSigner
	profiles: Profiles
	families: Families
	keys: ApiKeys
	principals: PrincipalMaker
}) {
	const { signer, profiles, families, keys, principals } = deps
	/** A live key's caller: its owner still the active owner of its company (and, as a Bot API token, its account's). */
	const keyOutcome = (record: KeyRecord, profile: Profile | null, botUserId?: string): CallerOutcome => {
		if (botUserId !== undefined && (record.botUserId === null || String(record.botUserId) !== botUserId))
			return tokenInvalid
		if (!profile?.active || !profile.isOwner || profile.companyId !== record.companyId) return tokenInvalid
		const grant = { id: record.id, scopes: record.scopes }
		// Presented as a Bot API token: what the Bot API face's entry asks for (src/server/policy/can.ts).
		const principal = principals.ofKey(
			profile,
			botUserId === undefined ? grant : { ...grant, botToken: true },
		)
		const credential: Credential = {
			principal,
			family: keyFamily(record.id),
			sessionHash: null,
			sessionId: null,
			expiresAt: record.expiresAt ?? NEVER,
		}
		return { ok: true, caller: { principal, profile, sessionId: null, credential } }
	}
	return {
		/**
		 * The API key a request presents, from a header only (`X-Api-Key`, or `Authorization: Bearer`
		 * with the key's prefix): never from a cookie or the URL, where it would end up in logs.
		 */
		presentedKey(headers: Headers): string | null {
			const header = headers.get('x-api-key')
			if (header !== null) return header.trim()
			const match = /^Bearer\s+(\S+)$/i.exec(headers.get('authorization') ?? '')
			return match?.[1] && keys.looksLikeKey(match[1]) ? match[1] : null
		},

		/**
		 * An API key: live, its owner still the active owner of its company. What it may do is the
		 * policy's. `botUserId`: presented as a Bot API token, whose first part must be the account's
		 * user id of a key made with `bot_api`.
		 */
		async fromApiKey(secret: string, botUserId?: string): Promise<CallerOutcome> {
			const record: KeyRecord | null = await keys.resolve(secret)
			if (!record) return tokenInvalid
			return keyOutcome(record, await profiles.get(record.userId), botUserId)
		},

		/**
		 * As `fromApiKey`, when memory alone vouches for the key and its owner's profile (the Bot API
		 * face asks per request): the same outcome, no promise; undefined when it cannot tell.
		 */
		fromApiKeyNow(secret: string, botUserId?: string): CallerOutcome | undefined {
			const record = keys.resolveNow(secret)
			const profile = record && profiles.peek(record.userId)
			return profile ? keyOutcome(record, profile, botUserId) : undefined
		},

		/** A bearer access token: signature, type, expiry, its family alive, its user active. */
		async fromAccessToken(token: string): Promise<CallerOutcome> {
			const claims = signer.verify(token, 'access')
			if (!claims || !(await families.isAlive(claims.fam, claims.user_id))) return tokenInvalid
			const profile = await profiles.get(claims.user_id)
			if (!profile?.active) return tokenInvalid
			const principal = principals.of(profile, 'bearer')
			const credential: Credential = {
				principal,
				family: claims.fam,
				sessionHash: null,
				sessionId: null,
				expiresAt: claims.exp * 1000,
			}
			return { ok: true, caller: { principal, profile, sessionId: null, credential } }
		},
	}
}
