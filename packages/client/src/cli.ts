#!/usr/bin/env node
/// <reference types="node" />
/**
 * `npx @userbot-gateway/client mcp --url <gateway>`: the stdio MCP server (./mcp.ts), the API key
 * from USERBOT_GATEWAY_KEY (never an argument: a command line is seen by every process of the host).
 */
import { runMcpProxy } from './mcp'

const USAGE = 'usage: USERBOT_GATEWAY_KEY=<api key> userbot-gateway-client mcp --url <gateway address>'

/** `--url <u>` or `--url=<u>` of `mcp`'s arguments, or null. */
function urlArgument(args: readonly string[]): string | null {
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] ?? ''
		if (arg === '--url') return args[i + 1] ?? null
		if (arg.startsWith('--url=')) return arg.slice('--url='.length)
	}
	return null
}

async function main(argv: readonly string[]): Promise<number> {
	const [command, ...rest] = argv
	if (command !== 'mcp') {
		process.stderr.write(`${USAGE}\n`)
		return 2
	}
	const url = urlArgument(rest)
	const key = process.env.USERBOT_GATEWAY_KEY ?? ''
	if (!url || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
		process.stderr.write(`mcp: --url must be the gateway's http(s) address\n${USAGE}\n`)
		return 2
	}
	if (key === '') {
		process.stderr.write(`mcp: USERBOT_GATEWAY_KEY is not set (an API key of the gateway)\n${USAGE}\n`)
		return 2
	}
	await runMcpProxy({ url, key })
	return 0
}

main(process.argv.slice(2)).then(
	(code) => process.exit(code),
	() => {
		process.stderr.write('mcp: stopped by an error\n')
		process.exit(1)
	},
)
