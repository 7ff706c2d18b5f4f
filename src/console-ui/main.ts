/// <reference lib="dom" />
import './console.css'
import { api } from './api'
import { openConnection } from './connection'
import type { Ctx, Me, Page } from './context'
import { button, fill, h } from './dom'
import { forgotPage, loginPage, registerPage, resetPage } from './pages/auth'
import { chatPage } from './pages/chat'
import { commandsPage } from './pages/commands'
import { logPage } from './pages/log'
import { auditPage, invitesPage, keysPage, membersPage } from './pages/owner'
import { userbotsPage } from './pages/userbots'
import { webhooksPage } from './pages/webhooks'

/**
 * The web console: a single page served at `/` by the server it drives. Routes live in the fragment
 * (`#/userbots`, `#/commands?userbot=1`); `/reset-password` is the page family A's e-mail links to.
 */
type Route = (ctx: Ctx, params: URLSearchParams) => Page

const signedInRoutes: Record<string, Route> = {
	'/userbots': userbotsPage,
	'/commands': commandsPage,
	'/log': logPage,
	'/chat': chatPage,
}
const ownerRoutes: Record<string, Route> = {
	'/invites': invitesPage,
	'/members': membersPage,
	'/webhooks': webhooksPage,
	'/keys': keysPage,
	'/audit': auditPage,
}
const publicRoutes: Record<string, Route> = {
	'/login': loginPage,
	'/register': registerPage,
	'/forgot': () => forgotPage(),
}

function start() {
	const root = document.getElementById('app')
	if (!root) return
	const meta = document.querySelector('meta[name="ubg-families"]')?.getAttribute('content') ?? ''
	const families = { a: meta.split(' ').includes('a'), b: meta.split(' ').includes('b') }
	const nav = h('nav')
	const main = h('main')
	const connState = h('span', { class: 'conn', attrs: { 'data-connection': '' } }, 'not connected')
	fill(root, h('header', null, h('h1', null, 'Userbot gateway'), nav, connState), main)
	let current: Page | null = null

	const ctx: Ctx = {
		families,
		me: null,
		conn: null,
		navigate(route) {
			if (location.pathname !== '/') location.assign(`/${route}`)
			else if (location.hash === route) render()
			else location.hash = route
		},
		async signedIn(fresh = true) {
			ctx.me = await loadMe()
			if (!ctx.me) return
			ctx.conn?.close()
			const conn = openConnection()
			ctx.conn = conn
			conn.onState((s) => {
				if (ctx.conn !== conn) return
				connState.textContent = s
				connState.classList.toggle('error', s.startsWith('closed') && !s.startsWith('closed (1000'))
				// The session ended elsewhere (another tab logged out, a password reset): back to log in.
				if (s.startsWith('closed (1008') && ctx.me) {
					ctx.me = null
					ctx.navigate('#/login')
				}
			})
			// Opened now, so pushes and the log start at once.
			conn.client.connect().catch(() => {})
			// A fresh login starts at the userbots; a page opened on a route while signed in stays there.
			if (fresh) ctx.navigate('#/userbots')
			else render()
		},
		async signOut() {
			const path = families.b ? '/api/accounts/logout/' : '/accounts/logout/'
			await api('POST', path, {})
			ctx.me = null
			// The server closes the socket itself (1008 credentials revoked); the state line says so.
			ctx.navigate('#/login')
		},
	}

	const loadMe = async (): Promise<Me | null> => {
		if (families.a) {
			const answer = await api<Me>('GET', '/accounts/me/')
			return answer.ok ? answer.data : null
		}
		// Family B alone has no me/: a userbot list that answers says the session is alive.
		const probe = await api('GET', '/api/userbots/')
		return probe.ok ? { id: 0, email: '', is_owner: false, company: null } : null
	}

	const drawNav = () => {
		const link = (route: string, label: string) =>
			h(
				'a',
				{
					attrs: {
						href: `#${route}`,
						'data-nav': route.slice(1),
						'aria-current': location.hash === `#${route}` ? 'page' : undefined,
					},
				},
				label,
			)
		if (!ctx.me) {
			fill(nav, link('/login', 'Log in'), families.a ? link('/register', 'Register') : null)
			return
		}
		fill(
			nav,
			link('/userbots', 'Userbots'),
			link('/commands', 'Commands'),
			link('/log', 'Live log'),
			link('/chat', 'Chat'),
			ctx.me.is_owner ? link('/invites', 'Invites') : null,
			ctx.me.is_owner ? link('/members', 'Members') : null,
			ctx.me.is_owner ? link('/webhooks', 'Webhooks') : null,
			ctx.me.is_owner ? link('/keys', 'API keys') : null,
			ctx.me.is_owner ? link('/audit', 'Audit log') : null,
			h('span', { class: 'who', attrs: { 'data-me': '' } }, ctx.me.email),
			button('Log out', { 'data-action': 'logout' }, () => void ctx.signOut()),
		)
	}

	const render = () => {
		current?.dispose?.()
		let page: Page
		if (location.pathname === '/reset-password') {
			const fragment = new URLSearchParams(location.hash.slice(1))
			// The token leaves the address bar (and the history) once read.
			history.replaceState(null, '', '/reset-password')
			page = resetPage(ctx, fragment)
		} else {
			const [path = '', query = ''] = location.hash.slice(1).split('?')
			const params = new URLSearchParams(query)
			const route = ctx.me
				? (signedInRoutes[path] ?? (ctx.me.is_owner ? ownerRoutes[path] : undefined))
				: publicRoutes[path]
			page = route ? route(ctx, params) : ctx.me ? userbotsPage(ctx, params) : loginPage(ctx)
		}
		current = page
		drawNav()
		fill(main, page.element)
	}

	window.addEventListener('hashchange', render)
	void (async () => {
		if (location.pathname !== '/reset-password' && (await loadMe())) return ctx.signedIn(false)
		render()
	})()
}

start()
