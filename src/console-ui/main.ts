/// <reference lib="dom" />
import './console.css'
import { CLOSE_POLICY } from '../common/wire/close'
import { api } from './api'
import { type Connection, openConnection } from './connection'
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

/** The navigation: one line per page, owners' pages after the others. */
const signedInNav: [route: string, label: string][] = [
	['/userbots', 'Userbots'],
	['/chat', 'Chats'],
	['/commands', 'Commands'],
	['/log', 'Live log'],
]
const ownerNav: [route: string, label: string][] = [
	['/members', 'Members'],
	['/invites', 'Invites'],
	['/webhooks', 'Webhooks'],
	['/keys', 'API keys'],
	['/audit', 'Audit log'],
]

const meta = (name: string) => document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? ''

/** The page's frame: the skip link, the header (name, connection state, menu, navigation), the main. */
function buildShell(root: HTMLElement) {
	const nav = h('nav', { attrs: { id: 'nav', 'aria-label': 'Main' } })
	const account = h('div', { class: 'account' })
	const main = h('main', { attrs: { id: 'content', tabindex: '-1' } })
	const connState = h('span', { class: 'conn', attrs: { 'data-connection': '' } }, 'not connected')
	const header = h('header', { class: 'top' })
	// Narrow screens fold the navigation into a menu; wide ones show it and hide the button (CSS).
	const menu = button(
		'Menu',
		{ class: 'menu', 'aria-expanded': 'false', 'aria-controls': 'nav', 'data-action': 'menu' },
		() => setMenu(menu.getAttribute('aria-expanded') !== 'true'),
	)
	const setMenu = (open: boolean) => {
		menu.setAttribute('aria-expanded', String(open))
		header.classList.toggle('open', open)
	}
	fill(
		header,
		h('a', { class: 'brand', attrs: { href: '#/userbots' } }, 'Userbot gateway'),
		connState,
		menu,
		h('div', { class: 'drawer' }, nav, account),
	)
	fill(
		root,
		h('a', { class: 'skip', attrs: { href: '#content', 'data-skip': '' } }, 'Skip to content'),
		header,
		main,
	)
	root.querySelector('a.skip')?.addEventListener('click', (event) => {
		event.preventDefault()
		main.focus()
	})
	return { nav, account, main, connState, setMenu }
}

type Shell = ReturnType<typeof buildShell>

async function loadMe(families: Ctx['families']): Promise<Me | null> {
	if (families.a) {
		const answer = await api<Me>('GET', '/accounts/me/')
		return answer.ok ? answer.data : null
	}
	// Family B alone has no me/: a userbot list that answers says the session is alive.
	const probe = await api('GET', '/api/userbots/')
	return probe.ok ? { id: 0, email: '', is_owner: false, company: null } : null
}

/** The navigation for who is signed in (log in and register for nobody), and the account's corner. */
function drawNav(shell: Shell, ctx: Ctx): void {
	const { nav, account } = shell
	const path = location.hash.slice(1).split('?')[0]
	const link = ([route, label]: [string, string]) =>
		h(
			'li',
			null,
			h(
				'a',
				{
					attrs: {
						href: `#${route}`,
						'data-nav': route.slice(1),
						'aria-current': path === route ? 'page' : undefined,
					},
				},
				label,
			),
		)
	if (!ctx.me) {
		const links: [string, string][] = [['/login', 'Log in']]
		if (ctx.families.a) links.push(['/register', 'Register'])
		fill(nav, h('ul', null, ...links.map(link)))
		fill(account)
		return
	}
	fill(nav, h('ul', null, ...signedInNav.map(link), ...(ctx.me.is_owner ? ownerNav.map(link) : [])))
	fill(
		account,
		ctx.me.email ? h('span', { class: 'who', attrs: { 'data-me': '' } }, ctx.me.email) : null,
		button('Log out', { 'data-action': 'logout', class: 'quiet' }, () => void ctx.signOut()),
	)
}

/** The page the address asks for, among those open to who is signed in. */
function pageFor(ctx: Ctx): Page {
	if (location.pathname === '/reset-password') {
		const fragment = new URLSearchParams(location.hash.slice(1))
		// The token leaves the address bar (and the history) once read.
		history.replaceState(null, '', '/reset-password')
		return resetPage(ctx, fragment)
	}
	const [path = '', query = ''] = location.hash.slice(1).split('?')
	const params = new URLSearchParams(query)
	const route = ctx.me
		? (signedInRoutes[path] ?? (ctx.me.is_owner ? ownerRoutes[path] : undefined))
		: publicRoutes[path]
	return route ? route(ctx, params) : ctx.me ? userbotsPage(ctx, params) : loginPage(ctx)
}

/** The connection's state in the header; a session ended elsewhere goes back to log in. */
function showConnection(ctx: Ctx, conn: Connection, connState: HTMLElement): void {
	conn.onState((s) => {
		if (ctx.conn !== conn) return
		connState.textContent = s
		connState.classList.toggle('error', s.startsWith('closed') && !s.startsWith('closed (1000'))
		connState.classList.toggle('ok', s === 'connected')
		// The session ended elsewhere (another tab logged out, a password reset): back to log in.
		if (s.startsWith(`closed (${CLOSE_POLICY}`) && ctx.me) {
			ctx.me = null
			ctx.navigate('#/login')
		}
	})
}

function start() {
	const root = document.getElementById('app')
	if (!root) return
	const families = {
		a: meta('ubg-families').split(' ').includes('a'),
		b: meta('ubg-families').split(' ').includes('b'),
	}
	const shell = buildShell(root)
	let current: Page | null = null

	const ctx: Ctx = {
		families,
		emulator: meta('ubg-emulator') === 'true',
		me: null,
		conn: null,
		flash: null,
		navigate(route) {
			if (location.pathname !== '/') location.assign(`/${route}`)
			else if (location.hash === route) render()
			else location.hash = route
		},
		async signedIn(fresh = true) {
			ctx.me = await loadMe(families)
			if (!ctx.me) return
			ctx.conn?.close()
			const conn = openConnection()
			ctx.conn = conn
			showConnection(ctx, conn, shell.connState)
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

	const render = () => {
		current?.dispose?.()
		const page = pageFor(ctx)
		current = page
		shell.setMenu(false)
		drawNav(shell, ctx)
		fill(shell.main, page.element)
		document.title = `${page.element.querySelector('h2')?.textContent ?? 'Console'} · Userbot gateway`
	}

	window.addEventListener('hashchange', render)
	void (async () => {
		if (location.pathname !== '/reset-password' && (await loadMe(families))) return ctx.signedIn(false)
		render()
	})()
}

start()
