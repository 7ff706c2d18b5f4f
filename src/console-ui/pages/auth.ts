/// <reference lib="dom" />
import { api, errorText } from '../api'
import type { Ctx, Page } from '../context'
import { button, field, fieldValue, form, h, input, statusLine } from '../dom'

/**
 * Register, log in (family A, and family B's form when that plugin is loaded), ask for a reset
 * link, and set a new password from the e-mailed link (`/reset-password#token=...&email=...`).
 */
export function loginPage(ctx: Ctx): Page {
	const forms: HTMLElement[] = []
	// Just registered: say so, and fill the address in.
	const flash = ctx.flash
	ctx.flash = null
	const loginForm = (family: 'a' | 'b', title: string, path: string) => {
		const status = statusLine()
		return h(
			'section',
			{ class: 'card', attrs: { 'data-family': family } },
			h('h2', null, title),
			form(
				`login-${family}`,
				async (f) => {
					status.show('Logging in...')
					const answer = await api('POST', path, {
						email: fieldValue(f, 'email'),
						password: fieldValue(f, 'password'),
					})
					if (!answer.ok) return status.show(errorText(answer), true)
					status.show('')
					await ctx.signedIn()
				},
				field('E-mail', input('email', { type: 'email', autocomplete: 'username', value: flash?.email })),
				field('Password', input('password', { type: 'password', autocomplete: 'current-password' })),
				button('Log in'),
				status,
			),
		)
	}
	if (ctx.families.a) forms.push(loginForm('a', 'Log in', '/accounts/login/'))
	if (ctx.families.b) forms.push(loginForm('b', 'Log in with the main server', '/api/accounts/login/'))
	return {
		element: h(
			'div',
			{ class: 'page narrow', attrs: { 'data-page': 'login' } },
			flash ? h('p', { class: 'notice', attrs: { role: 'status', 'data-notice': '' } }, flash.message) : null,
			...forms,
			ctx.families.a
				? h(
						'p',
						null,
						h('a', { attrs: { href: '#/register' } }, 'Create an account'),
						' · ',
						h('a', { attrs: { href: '#/forgot' } }, 'Forgot your password?'),
					)
				: null,
		),
	}
}

export function registerPage(ctx: Ctx, params: URLSearchParams): Page {
	const invite = params.get('invite') ?? ''
	const status = statusLine()
	return {
		element: h(
			'div',
			{ class: 'page narrow', attrs: { 'data-page': 'register' } },
			h(
				'section',
				{ class: 'card' },
				h('h2', null, invite ? 'Join your company' : 'Create an account and a company'),
				form(
					'register',
					async (f) => {
						const body: Record<string, string> = {
							email: fieldValue(f, 'email'),
							password: fieldValue(f, 'password'),
							first_name: fieldValue(f, 'first_name'),
							last_name: fieldValue(f, 'last_name'),
						}
						if (invite) body.invite = invite
						const answer = await api('POST', '/accounts/register/', body)
						if (!answer.ok) return status.show(errorText(answer), true)
						ctx.flash = { message: 'Account created. Log in with your new password.', email: body.email }
						ctx.navigate('#/login')
					},
					field('E-mail', input('email', { type: 'email', autocomplete: 'username' })),
					field('Password', input('password', { type: 'password', autocomplete: 'new-password' })),
					h(
						'p',
						{ class: 'hint' },
						'At least 8 characters: not only digits, not a common password, not like your name or e-mail.',
					),
					field('First name', input('first_name', { autocomplete: 'given-name' })),
					field('Last name', input('last_name', { autocomplete: 'family-name' })),
					invite ? h('p', { class: 'muted' }, 'You were invited: you will join the inviting company.') : null,
					button('Register'),
					status,
				),
			),
			h('p', null, h('a', { attrs: { href: '#/login' } }, 'Log in instead')),
		),
	}
}

export function forgotPage(): Page {
	const status = statusLine()
	return {
		element: h(
			'div',
			{ class: 'page', attrs: { 'data-page': 'forgot' } },
			h(
				'section',
				{ class: 'card' },
				h('h2', null, 'Reset your password'),
				form(
					'request-reset',
					async (f) => {
						const answer = await api('POST', '/accounts/request-reset/', { email: fieldValue(f, 'email') })
						if (!answer.ok) return status.show(errorText(answer), true)
						status.show('If an account has this address, a link to reset its password is on its way.')
					},
					field('E-mail', input('email', { type: 'email', autocomplete: 'username' })),
					button('Send me a link'),
					status,
				),
			),
			h('p', null, h('a', { attrs: { href: '#/login' } }, 'Back to log in')),
		),
	}
}

/** The e-mailed link's page. The token is read from the fragment, then taken out of the address bar. */
export function resetPage(ctx: Ctx, fragment: URLSearchParams): Page {
	const token = fragment.get('token') ?? ''
	const email = fragment.get('email') ?? ''
	const status = statusLine()
	const content = token
		? form(
				'reset-password',
				async (f) => {
					const password = fieldValue(f, 'new_password')
					if (password !== fieldValue(f, 'confirm')) return status.show('The two passwords differ.', true)
					const answer = await api('POST', '/accounts/reset-password/', {
						email,
						token,
						new_password: password,
					})
					if (!answer.ok) return status.show(errorText(answer), true)
					f.replaceWith(
						h(
							'p',
							{ class: 'ok', attrs: { 'data-reset': 'done' } },
							'Your password is changed. ',
							h('a', { attrs: { href: '/#/login' } }, 'Log in'),
						),
					)
					status.show('')
				},
				h('p', null, 'New password for ', h('strong', { attrs: { 'data-email': '' } }, email)),
				field('New password', input('new_password', { type: 'password', autocomplete: 'new-password' })),
				field('Again', input('confirm', { type: 'password', autocomplete: 'new-password' })),
				button('Set the password'),
			)
		: h('p', { class: 'error' }, 'This link carries no reset token: ask for a new link.')
	void ctx
	return {
		element: h(
			'div',
			{ class: 'page', attrs: { 'data-page': 'reset' } },
			h('section', { class: 'card' }, h('h2', null, 'Choose a new password'), content, status),
		),
	}
}
