import { connectWs, type WsClient } from '../helpers-ws'
import type { RoleName, World } from './world'

/**
 * One cell of the matrix as a request, and its answer read back in the policy table's codes
 * (docs/policy.md#the-table): the plan is plain data (./matrix.test.ts makes it from the app's own
 * entries), so that it can be run on an older checkout too (./changed-cells.ts). Requests are made to
 * be allowed harmlessly: a body the route refuses after the policy (400), a target that is not
 * logged in to Telegram (a command answers `userbot is not authorized`), a fresh target for a request
 * that consumes it.
 */
export interface PlannedOp {
	name: string
	face: 'rest' | 'ws'
	/** The resource kind the path's or frame's id names. */
	resource: string
	/** Path parameters naming the resource; other parameters get a sample value. */
	params: string[]
	/** Body fields naming userbots (`userbot_ids` a list, `userbot_id` one). */
	bodyFields: string[]
	/** The roles it is tried on; empty: tried once. */
	roles: RoleName[]
}

export interface Cell {
	op: PlannedOp
	kind: string
	role: RoleName | null
}

/** What a route needs beyond its policy to be tried without harm (docs/policy.md#the-table). */
interface Special {
	/** The body, naming `target` where the route reads userbots from it. */
	body?: (target: number) => unknown
	/**
	 * It takes its target: a new one per allowed try (`fresh`), or the part it takes put back. Its
	 * tries run one by one after the others, so that one allowed where the table says it should not be
	 * takes nothing another try needs.
	 */
	consumes?: 'fresh' | 'grant' | 'proxy'
	/** It ends the caller's own credential (logout): tried after everything else. */
	last?: true
	/** Two tries at once would race on the target (two rotations: one wins): tried one by one. */
	serial?: true
}

const INVALID_URL = 'ftp://policy.invalid/'
export const SPECIAL: Readonly<Record<string, Special>> = {
	'POST /api/userbots/': { body: () => ({ name: 5 }) },
	'POST /accounts/invites/': { body: () => ({ email: 5 }) },
	// A real endpoint where allowed (on 127.0.0.1, which nothing answers): its userbots are what counts.
	'POST /api/webhooks/': { body: (t) => ({ url: 'http://127.0.0.1:9/policy-made', userbot_ids: [t] }) },
	'PATCH /api/webhooks/:id/': { body: (t) => ({ url: INVALID_URL, userbot_ids: [t] }) },
	'POST /api/webhooks/:id/replay/': { body: (t) => ({ userbot_id: t }) },
	'DELETE /api/userbots/:id/': { consumes: 'fresh' },
	'DELETE /api/webhooks/:id/': { consumes: 'fresh' },
	'DELETE /accounts/members/:id/': { consumes: 'fresh' },
	'DELETE /api/keys/:id/': { consumes: 'fresh' },
	'DELETE /accounts/members/:id/grants/:permission/': { consumes: 'grant' },
	'DELETE /api/userbots/:id/proxy/': { consumes: 'proxy' },
	'POST /api/webhooks/:id/rotate-secret/': { serial: true },
	'POST /accounts/logout/': { last: true },
	'POST /api/accounts/logout/': { last: true },
}

const NOBODYS_TOKEN = '1:ubg_nobody'

/** Path parameters that name no resource: a value the route reads as such. */
const SAMPLE: Readonly<Record<string, string>> = { file_id: '1', permission: 'userbots.manage' }
const FORBIDDEN = new Set(['status_not_allowed', 'company_inactive', 'key_scope', 'permission_denied'])
const SHORT: Readonly<Record<string, string>> = {
	status_not_allowed: '403s',
	company_inactive: '403c',
	key_scope: '403k',
	permission_denied: '403p',
}

/** The resource's id for the cell: the shared one, or a fresh one when the try consumes it. */
async function targetOf(world: World, cell: Cell, fresh: boolean): Promise<number> {
	const { role, op } = cell
	if (!role) return 0
	if (fresh) return world.fresh(op.resource, role)
	const id = world.ids[op.resource]?.[role]
	if (id === undefined) throw new Error(`no ${role} ${op.resource}`)
	return id
}

/** The userbot a body names for the role (the operation's own kind may be another: an endpoint). */
const bodyUserbot = (world: World, role: RoleName | null) => (role ? (world.ids.userbot?.[role] ?? 0) : 0)

/** A REST cell, its request made and its answer read back as the table's code. */
export async function runRest(world: World, cell: Cell, allowedExpected: boolean): Promise<string> {
	const { op } = cell
	const [method, path] = op.name.split(' ') as [string, string]
	const special = SPECIAL[op.name] ?? {}
	const consuming = allowedExpected && special.consumes !== undefined
	const target = await targetOf(world, cell, consuming && special.consumes === 'fresh')
	if (consuming && special.consumes !== 'fresh' && cell.role)
		await world.restore(special.consumes as 'grant' | 'proxy', cell.role, target)
	// A Bot API token's path carries the caller's token, or one of nobody's (its shape, no such key).
	const token = world.credentials[cell.kind]?.botToken ?? NOBODYS_TOKEN
	const url = path.replace(/:([a-z_]+)/g, (_, name: string) =>
		op.params.includes(name) ? String(target) : name === 'token' ? token : (SAMPLE[name] ?? '1'),
	)
	const named = bodyUserbot(world, cell.role)
	const body =
		special.body?.(named) ??
		(op.bodyFields.length > 0
			? Object.fromEntries(op.bodyFields.map((f) => [f, f.endsWith('_ids') ? [named] : named]))
			: ['POST', 'PUT', 'PATCH'].includes(method)
				? {}
				: undefined)
	const res = await fetch(`${world.t.url}${url}`, {
		method,
		headers: {
			...world.credentials[cell.kind]?.headers,
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		...(body === undefined ? {} : { body: JSON.stringify(body) }),
	})
	return restCode(res.status, await res.text(), op.bodyFields)
}

/** An answer as the table writes it: a refusal of the policy, or `✓` (whatever the route then said). */
export function restCode(status: number, text: string, bodyFields: readonly string[]): string {
	let body: Record<string, unknown> = {}
	try {
		body = JSON.parse(text) as Record<string, unknown>
	} catch {}
	if (status === 401) return '401'
	if (status === 403 && typeof body.code === 'string' && FORBIDDEN.has(body.code))
		return SHORT[body.code] ?? '?'
	if (status === 404 && text === '{"detail":"Not found."}') return '404'
	if (status === 400 && bodyFields.some((f) => Array.isArray(body[f]))) return '400'
	if (status >= 500) return `${status}!`
	return '✓'
}

/** The upgrade of `/ws` for a kind of caller: `✓` and the socket when it opens, else the refusal's code. */
export async function runUpgrade(world: World, kind: string): Promise<{ code: string; socket?: WsClient }> {
	const credential = world.credentials[kind]
	if (!credential) throw new Error(`no credential for ${kind}`)
	try {
		return { code: '✓', socket: await connectWs(world.t.url, credential.ws) }
	} catch {
		// Refused: the same request, raw, to read the status and body the refusal has.
		const res = await fetch(`${world.t.url}/ws`, {
			headers: {
				...credential.headers,
				connection: 'Upgrade',
				upgrade: 'websocket',
				'sec-websocket-version': '13',
				'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
			},
		})
		return { code: restCode(res.status, await res.text(), []) }
	}
}

/** A command or frame on an open socket: `nf`, `pd`, or `✓` for any other answer. */
export async function runFrame(world: World, socket: WsClient, cell: Cell): Promise<string> {
	const userbotId = bodyUserbot(world, cell.role)
	const reply = await socket.command({ action: cell.op.name, userbot_id: userbotId }, 30_000)
	const error = reply.payload.error
	if (error === 'userbot not found') return 'nf'
	if (error === 'permission denied') return 'pd'
	return '✓'
}

/** A cell's key in the answers: `op | kind | role`. */
export const cellKey = (cell: Cell) => `${cell.op.name} | ${cell.kind} | ${cell.role ?? '-'}`

/** Every cell of the plan for every kind of caller. */
export function cellsOfPlan(ops: readonly PlannedOp[], kinds: readonly string[]): Cell[] {
	return ops.flatMap((op) =>
		kinds.flatMap((kind) => (op.roles.length ? op.roles : [null]).map((role) => ({ op, kind, role }))),
	)
}

/** Runs `jobs` with at most `width` at once. */
async function pool<T>(items: readonly T[], width: number, job: (item: T) => Promise<void>) {
	let next = 0
	await Promise.all(
		Array.from({ length: width }, async () => {
			while (next < items.length) await job(items[next++] as T)
		}),
	)
}

/**
 * Runs every cell and answers each one's code. `expected` says which tries are meant to be
 * allowed, where a consuming route gets a fresh target. In turn: the harmless REST tries, many at
 * once; the sockets (one per kind of caller) and their frames; the consuming tries one by one; then
 * the logouts, which end the credential they are made with.
 */
export async function runMatrix(
	world: World,
	cells: readonly Cell[],
	expected: (cell: Cell) => string | undefined,
): Promise<Map<string, string>> {
	const answers = new Map<string, string>()
	const rest = cells.filter((c) => c.op.face === 'rest' && c.op.name !== 'WS /ws')
	const special = (c: Cell) => SPECIAL[c.op.name] ?? {}
	const consuming = (c: Cell) => special(c).serial === true || special(c).consumes !== undefined
	const run = async (c: Cell) => {
		answers.set(cellKey(c), await runRest(world, c, expected(c) === '✓'))
	}
	await pool(
		rest.filter((c) => !consuming(c) && !special(c).last),
		8,
		run,
	)
	const kinds = [...new Set(cells.map((c) => c.kind))]
	const sockets: WsClient[] = []
	for (const kind of kinds) {
		const { code, socket } = await runUpgrade(world, kind)
		for (const c of cells.filter((x) => x.kind === kind && x.op.name === 'WS /ws'))
			answers.set(cellKey(c), code)
		const frames = cells.filter((x) => x.kind === kind && x.op.face === 'ws')
		// No socket: every frame of this caller is answered by the refused upgrade.
		if (!socket) {
			for (const c of frames) answers.set(cellKey(c), code)
			continue
		}
		sockets.push(socket)
		await pool(frames, 64, async (c) => {
			answers.set(cellKey(c), await runFrame(world, socket, c))
		})
	}
	for (const s of sockets) s.close()
	for (const c of rest.filter((x) => consuming(x) && !special(x).last)) await run(c)
	for (const c of rest.filter((x) => special(x).last)) await run(c)
	return answers
}
