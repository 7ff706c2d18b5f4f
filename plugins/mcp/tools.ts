import {
	type AppContext,
	type CatalogCommand,
	GatewayErrors,
	type JsonSchema,
	mayRun,
	type Principal,
	reachedUserbots,
} from 'userbot-gateway/plugin'

/**
 * The tools (docs/mcp.md#tools): one per command the gateway serves, made from the catalog as it
 * is when the agent asks (a third party's group included), and only those the key may run (`mayRun`,
 * the one policy: a `read_only` key sees the reads, a key of some groups those groups'). A call
 * runs the command through `ctx.runCommand`, the WebSocket's dispatcher: the same policy, input
 * check, flood governor, deadline and audit.
 */

export interface McpTool {
	name: string
	title?: string
	description: string
	inputSchema: { type: 'object' } & JsonSchema
	annotations: { readOnlyHint: boolean; destructiveHint: boolean; openWorldHint: boolean }
}

/** What a tool call answers: the command's result as structured content, or its error as a tool error. */
export interface ToolAnswer {
	[key: string]: unknown
	content: { type: 'text'; text: string }[]
	structuredContent?: Record<string, unknown>
	isError?: boolean
}

/**
 * **Decision:** the userbot is the tool's `userbot_id` argument; a key kept to exactly one userbot
 * may leave it out, and gets that one.
 */
export function defaultUserbot(principal: Principal): number | null {
	const ids = reachedUserbots(principal)
	return ids?.length === 1 ? (ids[0] ?? null) : null
}

/** The tools the principal may use, in the catalog's order. */
export function toolsFor(ctx: AppContext, principal: Principal): McpTool[] {
	const fallback = defaultUserbot(principal)
	return ctx
		.servedCommands()
		.filter(({ policy }) => mayRun(principal, policy))
		.map(({ catalog }) => toolOf(catalog, fallback))
}

function toolOf(command: CatalogCommand, fallback: number | null): McpTool {
	const input = command.input as { properties?: Record<string, JsonSchema>; required?: string[] }
	const userbot: JsonSchema = {
		type: 'integer',
		description:
			fallback === null
				? 'the userbot (its id) the command runs on'
				: `the userbot (its id) the command runs on; default ${fallback}, the one this key reaches`,
	}
	const required = [...(fallback === null ? ['userbot_id'] : []), ...(input.required ?? [])]
	return {
		name: command.name,
		...(command.summary ? { title: command.summary } : {}),
		description: describe(command),
		inputSchema: {
			...command.input,
			type: 'object',
			properties: { userbot_id: userbot, ...input.properties },
			...(required.length > 0 ? { required } : {}),
		},
		annotations: {
			readOnlyHint: command.action === 'read',
			// Said either way: MCP takes a tool that does not say for destructive.
			destructiveHint: command.destructive,
			openWorldHint: true,
		},
	}
}

/** The command's summary, what it answers and the errors it may answer, word for word. */
function describe(command: CatalogCommand): string {
	const parts = [command.summary ?? command.name]
	if (command.result.description) parts.push(`Answers ${command.result.description}`)
	parts.push(`Its errors (the tool error's text, word for word): ${command.errors.join(' | ')}`)
	if (command.tdlib_errors) parts.push("TDLib's own error messages are passed on as they are.")
	return parts.join('\n\n')
}

const failed = (error: string, result?: unknown): ToolAnswer => ({
	content: [{ type: 'text', text: error }],
	structuredContent: { error, ...(result === undefined ? {} : { result }) },
	isError: true,
})

/** A result as MCP's structured content, which is an object: a result that is none is `{result}`. */
function succeeded(result: unknown): ToolAnswer {
	const structured =
		typeof result === 'object' && result !== null && !Array.isArray(result)
			? (result as Record<string, unknown>)
			: { result }
	return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: structured }
}

/** Runs the tool's command for the principal, on the userbot its arguments name (or the key's one). */
export async function callTool(
	ctx: AppContext,
	principal: Principal,
	name: string,
	args: Record<string, unknown>,
	signal?: AbortSignal,
): Promise<ToolAnswer> {
	// Only a command is a tool: the channel's own frames (subscribe...) are not run here.
	if (!ctx.servedCommands().some((c) => c.catalog.name === name)) return failed(GatewayErrors.UNKNOWN_ACTION)
	const { userbot_id: given, ...input } = args
	const userbotId = given === undefined ? defaultUserbot(principal) : given
	if (userbotId === null) return failed(GatewayErrors.USERBOT_ID_REQUIRED)
	if (typeof userbotId !== 'number' || !Number.isSafeInteger(userbotId))
		return failed(GatewayErrors.USERBOT_ID_NOT_INTEGER)
	const answer = await ctx.runCommand(principal, userbotId, name, input, signal)
	return answer.ok ? succeeded(answer.result) : failed(answer.error, answer.result)
}
