/// <reference lib="dom" />
import { api } from '../api'
import type { Ctx, Page } from '../context'
import { button, fill, h, statusLine } from '../dom'
import { fieldsOf, renderSchemaForm } from '../schema-form'
import { listUserbots } from './userbots'

/**
 * The command runner: a userbot, a command from the live catalog (`GET /api/commands/`, so a plugin's
 * commands are there too), a form made from its input schema with its defaults, and the event that
 * answers it (errors in red).
 */
interface CatalogCommand {
	name: string
	group: string
	summary: string | null
	input: Parameters<typeof fieldsOf>[0]
	errors: string[]
}

export function commandsPage(ctx: Ctx, params: URLSearchParams): Page {
	const userbotSelect = h('select', { attrs: { name: 'userbot', 'data-select': 'userbot' } })
	const commandSelect = h('select', { attrs: { name: 'command', 'data-select': 'command' } })
	const summary = h('p', { class: 'muted' })
	const formBox = h('div')
	const result = h('pre', { class: 'event', attrs: { 'data-result': '' } })
	const status = statusLine()
	let commands: CatalogCommand[] = []
	let current: ReturnType<typeof renderSchemaForm> | null = null

	const showCommand = () => {
		const command = commands.find((c) => c.name === commandSelect.value)
		if (!command) return
		summary.textContent = command.summary ?? ''
		current = renderSchemaForm(fieldsOf(command.input))
		fill(formBox, current.element)
	}
	commandSelect.addEventListener('change', showCommand)

	const send = async () => {
		if (!ctx.conn || !current) return
		const read = current.read()
		if ('error' in read) return status.show(read.error, true)
		const userbotId = Number(userbotSelect.value)
		status.show('Sent; waiting for the reply...')
		result.textContent = ''
		result.classList.remove('error', 'ok')
		try {
			const payload = await ctx.conn.run({
				...read.input,
				action: commandSelect.value,
				userbot_id: userbotId,
			})
			const failed = payload.type.endsWith('_error')
			result.textContent = JSON.stringify(payload, null, 2)
			result.classList.add(failed ? 'error' : 'ok')
			status.show(failed ? `${payload.type}: ${payload.error ?? ''}` : `${payload.type}: done`, failed)
		} catch (err) {
			status.show(err instanceof Error ? err.message : String(err), true)
		}
	}

	void (async () => {
		const [bots, catalog] = await Promise.all([
			listUserbots(),
			api<{ commands: CatalogCommand[] }>('GET', '/api/commands/'),
		])
		const wanted = params.get('userbot')
		fill(
			userbotSelect,
			...bots.map((b) =>
				h(
					'option',
					{ attrs: { value: String(b.id), selected: String(b.id) === wanted ? '' : undefined } },
					`${b.id}: ${b.name || '(no name)'} (${b.authorization_state.replace('authorizationState', '')})`,
				),
			),
		)
		commands = catalog.ok ? catalog.data.commands : []
		const groups = new Map<string, CatalogCommand[]>()
		for (const c of commands) groups.set(c.group, [...(groups.get(c.group) ?? []), c])
		fill(
			commandSelect,
			...[...groups].map(([group, list]) =>
				h(
					'optgroup',
					{ attrs: { label: group } },
					...list.map((c) => h('option', { attrs: { value: c.name } }, c.name)),
				),
			),
		)
		commandSelect.value = commands.some((c) => c.name === 'send_message')
			? 'send_message'
			: (commands[0]?.name ?? '')
		showCommand()
	})()

	return {
		element: h(
			'div',
			{ class: 'page', attrs: { 'data-page': 'commands' } },
			h(
				'section',
				{ class: 'card' },
				h('h2', null, 'Run a command'),
				h('label', { class: 'field' }, h('span', null, 'Userbot'), userbotSelect),
				h('label', { class: 'field' }, h('span', null, 'Command'), commandSelect),
				summary,
				formBox,
				button('Send', { 'data-action': 'send' }, () => void send()),
				status,
			),
			h('section', { class: 'card' }, h('h2', null, 'Reply'), result),
		),
	}
}
