/// <reference lib="dom" />
import { api, errorText } from '../../api'
import { button, field, fieldValue, form, h, input, statusLine } from '../../dom'
import type { Userbot } from '../../rest-types'

/**
 * A userbot's proxy (docs/operator.md#userbot-proxies): set or replaced whole with `PUT`, removed with
 * `DELETE`, checked again with `POST .../check/`. A change restarts the userbot's client (it comes
 * back logged in). The secret and the password are never shown back.
 */
type Status = ReturnType<typeof statusLine>

/** The form: its type, server, port and credentials; saved whole, then checked by the server. */
function proxyForm(bot: Userbot, base: string, status: Status, changed: () => void): HTMLFormElement {
	const type = h(
		'select',
		{ attrs: { name: 'type' } },
		...['socks5', 'http', 'mtproto'].map((t) =>
			h('option', { attrs: { value: t, selected: bot.proxy?.type === t ? '' : undefined } }, t),
		),
	)
	return form(
		'proxy',
		async (f) => {
			const body: Record<string, unknown> = {
				type: fieldValue(f, 'type'),
				server: fieldValue(f, 'server').trim(),
				port: Number(fieldValue(f, 'port')),
			}
			for (const name of ['username', 'password', 'secret']) {
				const value = fieldValue(f, name)
				if (value) body[name] = value
			}
			status.show('Saving; the userbot restarts with it...')
			const answer = await api<{ check?: { ok: boolean; latency_ms?: number; error?: string } }>(
				'PUT',
				base,
				body,
			)
			if (!answer.ok) return status.show(errorText(answer), true)
			const check = answer.data.check
			if (check && !check.ok) status.show(`Saved, but the check failed: ${check.error ?? ''}`, true)
			else
				status.show(check?.ok ? `Saved; Telegram answered through it in ${check.latency_ms} ms.` : 'Saved.')
			changed()
		},
		field('Type', type),
		field('Server (host name or IP address)', input('server', { value: bot.proxy?.server })),
		field(
			'Port',
			input('port', { inputmode: 'numeric', value: bot.proxy ? String(bot.proxy.port) : undefined }),
		),
		field('User name (SOCKS5, HTTP; optional)', input('username')),
		field('Password (SOCKS5, HTTP; optional)', input('password', { type: 'password', autocomplete: 'off' })),
		field('Secret (MTProto)', input('secret', { autocomplete: 'off' })),
		button('Save the proxy'),
	)
}

/** Check it again, or remove it. */
function proxyButtons(base: string, status: Status, changed: () => void): HTMLElement {
	return h(
		'div',
		null,
		button('Check it', { class: 'secondary' }, async () => {
			const answer = await api<{ ok: boolean; latency_ms?: number; error?: string }>('POST', `${base}check/`)
			if (!answer.ok) return status.show(errorText(answer), true)
			status.show(
				answer.data.ok
					? `Telegram answered in ${answer.data.latency_ms} ms.`
					: (answer.data.error ?? 'No answer.'),
				!answer.data.ok,
			)
		}),
		button('Remove the proxy', { class: 'danger' }, async () => {
			const answer = await api('DELETE', base)
			if (!answer.ok) return status.show(errorText(answer), true)
			status.show('Removed: Telegram is reached directly.')
			changed()
		}),
	)
}

export function proxyPanel(bot: Userbot, changed: () => void): HTMLElement {
	const status = statusLine()
	const base = `/api/userbots/${bot.id}/proxy/`
	return h(
		'div',
		{ attrs: { 'data-proxy-panel': String(bot.id) } },
		h('h2', null, `Proxy of “${bot.name || bot.id}”`),
		h(
			'p',
			{ class: 'muted' },
			bot.proxy
				? `Now: ${bot.proxy.type} ${bot.proxy.server}:${bot.proxy.port}.`
				: 'Now: none, Telegram is reached directly.',
		),
		proxyForm(bot, base, status, changed),
		bot.proxy ? proxyButtons(base, status, changed) : null,
		status,
	)
}
