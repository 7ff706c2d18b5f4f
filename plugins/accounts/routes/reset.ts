import { eq } from 'drizzle-orm'
import {
	badRequest,
	json,
	AUTH_MESSAGES as MESSAGES,
	PUBLIC_WRITE,
	type RestContext,
	ROUTE_ERRORS,
	restRoute,
	RestSchemas as S,
	throttled,
	userProfile,
	validatePassword,
	writeAudit,
} from 'userbot-gateway/plugin'
import type { AccountsContext } from '../settings'

/**
 * Password recovery. request-reset/ answers the same whether or not the email exists and mails a
 * link built from PUBLIC_URL (never the Host header); with `token` it only says whether the token
 * is live. reset-password/ consumes the token, sets the password and revokes every session and
 * refresh family of the user.
 */
const SENT = { detail: 'If an account exists for this email, a password reset link has been sent.' }

/** Issues a token for the user and mails the link; failures are logged, never thrown. */
async function sendResetLink(ctx: AccountsContext, userId: number, email: string): Promise<void> {
	const { settings, mailer } = ctx.accounts
	try {
		const token = await ctx.auth.resetTokens.issue(userId, settings.resetTokenLifetime)
		// The token rides in the fragment: browsers never send it to a server, so it stays out of
		// access logs and Referer headers; the page reads it and posts it to reset-password/.
		const link = `${ctx.config.publicUrl}/reset-password#token=${encodeURIComponent(token)}&email=${encodeURIComponent(email)}`
		await mailer.send({
			to: email,
			subject: 'Password reset',
			text: `Someone asked to reset the password of your account.\n\nTo choose a new password, open:\n${link}\n\nThe link works once and expires in ${Math.round(settings.resetTokenLifetime / 60)} minutes. If you did not ask for this, ignore this email.\n`,
		})
	} catch (err) {
		ctx.log.error('reset email failed', { error: err instanceof Error ? err : String(err) })
	}
}

export const resetRoutes = [
	restRoute({
		method: 'post',
		path: '/accounts/request-reset/',
		policy: PUBLIC_WRITE,
		body: S.ResetRequest,
		response: { 200: S.ResetAnswer, ...ROUTE_ERRORS.badRequest, ...ROUTE_ERRORS.throttled },
		detail: {
			operationId: 'requestPasswordReset',
			summary: 'Mails a password reset link (the same answer whether the e-mail exists)',
			tags: ['accounts'],
		},
		handle: async (ctx: AccountsContext, { body: { email, token }, request, server }) => {
			if (token !== undefined) {
				if (!(await ctx.auth.resetTokens.find(email, token)))
					throw badRequest({ token: [MESSAGES.invalidResetToken] })
				return json({ valid: true })
			}
			const { settings } = ctx.accounts
			// The client address first: past its limit the request is refused before it writes a
			// counter for the (possibly made-up) email, so a flood adds no rows.
			const ip = ctx.auth.clientAddress(server, request)
			const byIp = await ctx.auth.limiter.hit(
				`reset-ip:${ip}`,
				settings.resetRateLimitIp,
				settings.resetRateWindow,
			)
			if (byIp) throw throttled(byIp)
			const byEmail = await ctx.auth.limiter.hit(
				`reset-email:${email}`,
				settings.resetRateLimitEmail,
				settings.resetRateWindow,
			)
			if (byEmail) throw throttled(byEmail)
			const [user] = await ctx.db
				.select({ id: userProfile.id, active: userProfile.active })
				.from(userProfile)
				.where(eq(userProfile.email, email))
			// Not awaited: issuing the token (a transaction) and mailing it run after the answer, which
			// must not take longer when the account exists.
			if (user?.active) void sendResetLink(ctx, user.id, email)
			return json(SENT)
		},
	}),
	restRoute({
		method: 'post',
		path: '/accounts/reset-password/',
		policy: PUBLIC_WRITE,
		body: S.ResetPassword,
		response: { 200: S.DetailOnly, ...ROUTE_ERRORS.badRequest, ...ROUTE_ERRORS.throttled },
		detail: {
			operationId: 'resetPassword',
			summary: 'Sets a new password with a reset token; every session is revoked',
			tags: ['accounts'],
		},
		handle: async (ctx: RestContext, { body: fields, request, server }) => {
			const found = await ctx.auth.resetTokens.find(fields.email, fields.token)
			if (!found) throw badRequest({ token: [MESSAGES.invalidResetToken] })
			const [user] = await ctx.db
				.select({
					email: userProfile.email,
					firstName: userProfile.firstName,
					lastName: userProfile.lastName,
					companyId: userProfile.companyId,
				})
				.from(userProfile)
				.where(eq(userProfile.id, found.userId))
			const problems = validatePassword(fields.new_password, {
				email: user?.email,
				first_name: user?.firstName,
				last_name: user?.lastName,
			})
			if (problems.length > 0) throw badRequest({ new_password: problems })
			const hash = await ctx.auth.hasher.hash(fields.new_password)
			const done = await ctx.db.transaction(async (tx) => {
				if (!(await ctx.auth.resetTokens.consume(found.id, tx))) return false
				await tx
					.update(userProfile)
					.set({ passwordHash: hash, updatedAt: Date.now() })
					.where(eq(userProfile.id, found.userId))
				await ctx.auth.revokeUser(found.userId, tx)
				// The user, by the mailed link: their own action, in their company's log.
				await writeAudit(
					tx,
					{ companyId: user?.companyId ?? null, userId: found.userId },
					{
						action: 'password.reset',
						target: `user:${found.userId}`,
						client: ctx.auth.clientAddress(server, request),
					},
				)
				return true
			})
			if (!done) throw badRequest({ token: [MESSAGES.invalidResetToken] })
			ctx.auth.invalidateUser(found.userId, true)
			return json({ detail: 'Password has been reset with the new password.' })
		},
	}),
] as const
