/// <reference lib="dom" />
import QRCode from 'qrcode'
import { api, errorText } from '../api'
import type { Ctx, Page } from '../context'
import { button, type Child, field, fieldValue, fill, form, h, input, statusLine } from '../dom'

/**
 * The company's userbots with their authorization state and their account's health as a badge
 * (`status`: active, cooling_down, limited, frozen, banned, revoked, restarting, stopped), a form to
 * add one, and the log-in step the selected one waits for: phone, code, 2FA password, a new
 * account's name, or a QR code to scan from a logged-in Telegram app. Authorization-state and
 * status pushes on the channel refresh the list.
 */
export interface Userbot {
	id: number
	name: string
	phone_number: string | null
	authorization_state: string
	status?: string
}

export async function listUserbots(): Promise<Userbot[]> {
	const answer = await api<Userbot[]>('GET', '/api/userbots/')
	return answer.ok && Array.isArray(answer.data) ? answer.data : []
}

const SHORT: Record<string, string> = {
	authorizationStateWaitPhoneNumber: 'waits for a phone number',
	authorizationStateWaitCode: 'waits for the code',
	authorizationStateWaitPassword: 'waits for the 2FA password',
	authorizationStateWaitRegistration: 'waits for a name (new account)',
	authorizationStateWaitOtherDeviceConfirmation: 'waits for the QR code to be scanned',
	authorizationStateReady: 'ready',
}

export function userbotsPage(ctx: Ctx, params: URLSearchParams): Page {
	let selected = Number(params.get('id') ?? '') || null
	let qrLink: string | null = null
	const table = h('tbody')
	const panel = h('div', { class: 'card', attrs: { 'data-login-panel': '' } })
	const status = statusLine()

	let generation = 0
	const refresh = async () => {
		const mine = ++generation
		const bots = await listUserbots()
		// A later refresh started meanwhile: its answer is the newer one.
		if (mine !== generation) return
		// The server stores a state (and a just-logged-in account's number) before it pushes it, so
		// one read on each push is enough.
		fill(
			table,
			...bots.map((b) =>
				h(
					'tr',
					{
						attrs: {
							'data-userbot': String(b.id),
							'data-state': b.authorization_state,
							'data-status': b.status ?? '',
						},
					},
					h('td', null, String(b.id)),
					h('td', null, b.name),
					h('td', null, b.phone_number ?? ''),
					h(
						'td',
						{ class: 'state' },
						b.authorization_state,
						h('small', null, SHORT[b.authorization_state] ?? ''),
					),
					h(
						'td',
						null,
						h('span', { class: `badge ${b.status === 'active' ? 'ok' : 'error'}` }, b.status ?? ''),
					),
					h(
						'td',
						null,
						button(
							b.id === selected ? 'Selected' : 'Log in / details',
							{ 'data-select': String(b.id) },
							() => {
								selected = b.id
								qrLink = null
								void refresh()
							},
						),
					),
				),
			),
		)
		if (bots.length === 0)
			fill(table, h('tr', null, h('td', { attrs: { colspan: '5' } }, 'No userbots yet.')))
		const bot = bots.find((b) => b.id === selected)
		const steps = bot ? await loginSteps(bot) : [h('p', { class: 'muted' }, 'Select a userbot to log it in.')]
		if (mine !== generation) return
		fill(panel, ...steps)
		for (const b of bots) if (b.authorization_state === 'authorizationStateReady') ctx.conn?.watch(b.id)
	}

	/** One REST step; its answer (or error) shown, then the list read again. */
	const step =
		(bot: Userbot, path: string, read: (f: HTMLFormElement) => Record<string, string>) =>
		async (f: HTMLFormElement) => {
			const answer = await api('POST', `/api/userbots/${bot.id}/${path}/`, read(f))
			if (!answer.ok) return stepStatus.show(errorText(answer), true)
			stepStatus.show('')
			await refresh()
		}
	const stepStatus = statusLine()

	const qrImage = async (link: string) => {
		const src = await QRCode.toDataURL(link, { margin: 2, width: 220 })
		return h(
			'figure',
			null,
			h('img', { attrs: { src, alt: 'QR code to log in', 'data-qr': '' } }),
			h('figcaption', null, 'Scan it in Telegram: Settings, Devices, Link Desktop Device.'),
		)
	}
	const requestQr = (bot: Userbot) =>
		button('Log in with a QR code', { 'data-action': 'qr' }, async () => {
			const answer = await api<{ link: string }>('POST', `/api/userbots/${bot.id}/qr/`)
			if (!answer.ok) return stepStatus.show(errorText(answer), true)
			qrLink = answer.data.link
			await refresh()
		})

	const loginSteps = async (bot: Userbot): Promise<Child[]> => {
		const head = h('h3', null, `Userbot ${bot.id}: ${bot.name || '(no name)'}`)
		const s = bot.authorization_state
		let body: Child[]
		if (s === 'authorizationStateWaitPhoneNumber') {
			body = [
				form(
					'phone',
					step(bot, 'phone', (f) => ({ phone_number: fieldValue(f, 'phone_number') })),
					field('Phone number', input('phone_number', { inputmode: 'tel' })),
					button('Send the code'),
				),
				requestQr(bot),
			]
		} else if (s === 'authorizationStateWaitCode') {
			body = [
				form(
					'code',
					step(bot, 'code', (f) => ({ code: fieldValue(f, 'code') })),
					field('Code', input('code', { inputmode: 'numeric' })),
					button('Log in'),
				),
			]
		} else if (s === 'authorizationStateWaitPassword') {
			body = [
				form(
					'password',
					step(bot, 'password', (f) => ({ password: fieldValue(f, 'password') })),
					field('2FA password', input('password', { type: 'password' })),
					button('Log in'),
				),
			]
		} else if (s === 'authorizationStateWaitRegistration') {
			body = [
				form(
					'registration',
					step(bot, 'register', (f) => ({
						first_name: fieldValue(f, 'first_name'),
						last_name: fieldValue(f, 'last_name'),
					})),
					field('First name', input('first_name')),
					field('Last name', input('last_name')),
					button('Create the account'),
				),
			]
		} else if (s === 'authorizationStateWaitOtherDeviceConfirmation') {
			body = [
				qrLink ? await qrImage(qrLink) : h('p', null, 'A QR code is waiting to be scanned.'),
				requestQr(bot),
			]
		} else if (s === 'authorizationStateReady') {
			body = [
				h(
					'p',
					{ class: 'ok' },
					'Logged in. Use it from ',
					h('a', { attrs: { href: `#/commands?userbot=${bot.id}` } }, 'the command runner'),
					' or watch ',
					h('a', { attrs: { href: `#/chat?userbot=${bot.id}` } }, 'its chats'),
					'.',
				),
			]
		} else {
			body = [h('p', null, 'No step to take in this state.')]
		}
		return [head, ...body, stepStatus]
	}

	const add = form(
		'add-userbot',
		async (f) => {
			const answer = await api<{ id: number }>('POST', '/api/userbots/', { name: fieldValue(f, 'name') })
			if (!answer.ok) return status.show(errorText(answer), true)
			status.show(`Userbot ${answer.data.id} added.`)
			selected = answer.data.id
			qrLink = null
			f.reset()
			await refresh()
		},
		field('Name', input('name')),
		button('Add a userbot'),
	)

	const stop = ctx.conn?.onEvent((event) => {
		if (event.payload.type === 'authorization_state' || event.payload.type === 'userbot_status')
			void refresh()
	})
	void refresh()
	return {
		element: h(
			'div',
			{ class: 'page', attrs: { 'data-page': 'userbots' } },
			h(
				'section',
				{ class: 'card' },
				h('h2', null, 'Userbots'),
				h(
					'table',
					null,
					h(
						'thead',
						null,
						h(
							'tr',
							null,
							h('th', null, 'id'),
							h('th', null, 'name'),
							h('th', null, 'phone'),
							h('th', null, 'authorization state'),
							h('th', null, 'status'),
							h('th', null, ''),
						),
					),
					table,
				),
				add,
				status,
			),
			panel,
		),
		dispose: () => {
			stop?.()
		},
	}
}
