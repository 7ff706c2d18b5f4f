/// <reference lib="dom" />
import type { ChatUpdate } from '../../public/client'
import { api } from '../api'
import type { Ctx, Page } from '../context'
import { button, type Child, explained, fill, h, statusLine } from '../dom'
import type { Userbot } from '../rest-types'
import { CHAT_CHOICES, fieldsOf, renderSchemaForm } from '../schema-form'
import { stateWords } from '../words'
import { commandLabel, groupCommands } from './commands/groups'
import { readable } from './commands/result'
import { listUserbots } from './userbots/list'

/**
 * The command runner: a userbot, a command of the live catalog (`GET /api/commands/`, so a plugin's
 * commands are there too) grouped by what it does, a form made from its input schema with its
 * defaults (a chat id offers the userbot's chats by title, from `get_chats`), and the
 * answer: readable first, the raw event one click away (errors in red).
 */
interface CatalogCommand {
	name: string
	group: string
	summary: string | null
	input: Parameters<typeof fieldsOf>[0]
	errors: string[]
}

/** How many chats the picker lists. */
const PICKER_CHATS = 20

/** The answer card: readable first (an error in words), the raw event folded under it. */
function answerSection() {
	// Scrolls when long: focusable, so a keyboard can scroll it too.
	const result = h('pre', {
		class: 'event',
		attrs: { 'data-result': '', tabindex: '0', 'aria-label': 'Raw JSON of the answer' },
	})
	const raw = h('details', { class: 'raw' }, h('summary', null, 'Raw JSON'), result)
	const view = h(
		'div',
		{ attrs: { 'data-readable': '' } },
		h('p', { class: 'muted' }, 'Run a command: its answer shows here.'),
	)
	return {
		element: h(
			'section',
			{ class: 'card', attrs: { 'aria-live': 'polite' } },
			h('h2', null, 'Answer'),
			view,
			raw,
		),
		clear() {
			result.textContent = ''
			result.classList.remove('error', 'ok')
		},
		/** Shows the reply's payload; true when it is an error. */
		show(payload: ChatUpdate['payload']): boolean {
			const failed = payload.type.endsWith('_error')
			result.textContent = JSON.stringify(payload, null, 2)
			result.classList.add(failed ? 'error' : 'ok')
			fill(
				view,
				failed
					? h(
							'div',
							{ class: 'status error', attrs: { 'data-error': '' } },
							...explained(String(payload.error ?? 'error')),
						)
					: readable(payload),
			)
			return failed
		},
	}
}

/** The userbot's chats for the id picker: a failure leaves the box to type an id in. */
function chatPicker(ctx: Ctx, userbotSelect: HTMLSelectElement) {
	const chats = h('datalist', { attrs: { id: CHAT_CHOICES } })
	let chatsOf = 0
	const load = async () => {
		const userbotId = Number(userbotSelect.value)
		if (!ctx.conn || !userbotId || chatsOf === userbotId) return
		chatsOf = userbotId
		fill(chats)
		try {
			const list = await ctx.conn.run({ action: 'get_chats', userbot_id: userbotId, limit: PICKER_CHATS })
			const found = (list.result as { chats?: { id?: unknown; title?: unknown }[] } | undefined)?.chats ?? []
			const options = found
				.filter((c) => typeof c.id === 'number' || typeof c.id === 'string')
				.map((c) =>
					h(
						'option',
						{ attrs: { value: String(c.id) } },
						typeof c.title === 'string' && c.title ? c.title : String(c.id),
					),
				)
			if (chatsOf === userbotId) fill(chats, ...options)
		} catch {
			// Not logged in, or the channel closed: ids are typed by hand.
		}
	}
	return { element: chats, load }
}

/** The two choices: the userbots with their state in words, the commands grouped by what they do. */
function fillChoices(
	userbotSelect: HTMLSelectElement,
	commandSelect: HTMLSelectElement,
	bots: Userbot[],
	commands: CatalogCommand[],
	wanted: string | null,
): void {
	fill(
		userbotSelect,
		...bots.map((b) =>
			h(
				'option',
				{ attrs: { value: String(b.id), selected: String(b.id) === wanted ? '' : undefined } },
				`${b.name || `Userbot ${b.id}`} (${stateWords(b.authorization_state)})`,
			),
		),
	)
	fill(
		commandSelect,
		...groupCommands(commands).map(([topic, list]) =>
			h(
				'optgroup',
				{ attrs: { label: topic } },
				...list.map((c) => h('option', { attrs: { value: c.name } }, commandLabel(c.name))),
			),
		),
	)
	commandSelect.value = commands.some((c) => c.name === 'send_message')
		? 'send_message'
		: (commands[0]?.name ?? '')
}

/** A select with its label, tied by the select's id. */
const labelled = (text: string, select: HTMLSelectElement) =>
	h('label', { class: 'field', attrs: { for: select.id } }, h('span', null, text), select)

/** The run card: its heading and what it is for, then the controls. */
const runCard = (...controls: Child[]) =>
	h(
		'section',
		{ class: 'card' },
		h('h2', null, 'Run a command'),
		h(
			'p',
			{ class: 'muted' },
			'Everything a userbot can do, as one command at a time: pick the account and what to do.',
		),
		...controls,
	)

export function commandsPage(ctx: Ctx, params: URLSearchParams): Page {
	const userbotSelect = h('select', {
		attrs: { name: 'userbot', id: 'run-userbot', 'data-select': 'userbot' },
	})
	const commandSelect = h('select', {
		attrs: { name: 'command', id: 'run-command', 'data-select': 'command' },
	})
	const chats = chatPicker(ctx, userbotSelect)
	const summary = h('p', { class: 'muted', attrs: { 'data-summary': '' } })
	const formBox = h('div')
	const answer = answerSection()
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
	userbotSelect.addEventListener('change', () => void chats.load())

	const send = async () => {
		if (!ctx.conn || !current) return
		const read = current.read()
		if ('error' in read) return status.show(read.error, true)
		const userbotId = Number(userbotSelect.value)
		status.show('Sent; waiting for the answer...')
		answer.clear()
		try {
			const payload = await ctx.conn.run({
				...read.input,
				action: commandSelect.value,
				userbot_id: userbotId,
			})
			const failed = answer.show(payload)
			status.show(failed ? 'The command was refused.' : `${commandLabel(commandSelect.value)}: done.`, failed)
		} catch (err) {
			status.show(err instanceof Error ? err.message : String(err), true)
		}
	}

	void (async () => {
		const [bots, catalog] = await Promise.all([
			listUserbots(),
			api<{ commands: CatalogCommand[] }>('GET', '/api/commands/'),
		])
		commands = catalog.ok ? catalog.data.commands : []
		fillChoices(userbotSelect, commandSelect, bots, commands, params.get('userbot'))
		showCommand()
		void chats.load()
	})()

	return {
		element: h(
			'div',
			{ class: 'page', attrs: { 'data-page': 'commands' } },
			runCard(
				labelled('Userbot', userbotSelect),
				labelled('What to do', commandSelect),
				summary,
				formBox,
				chats.element,
				button('Run', { 'data-action': 'send' }, () => void send()),
				status,
			),
			answer.element,
		),
	}
}
