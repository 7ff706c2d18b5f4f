/** The command line of `npm start` and of the compiled binary. */
type Known = 'serve' | 'migrate' | 'help' | 'version' | 'supervisor-child'
export type Command = { kind: Known } | { kind: 'unknown'; line: string }

/** The hidden subcommand the server starts its supervisor child with. */
export const SUPERVISOR_CHILD = 'supervisor-child'

export const USAGE = `Usage: userbot-gateway [command]

Commands:
  serve          serve REST and WebSocket (the default): applies migrations first
  migrate        apply the database migrations and exit
  --help, -h     show this help
  --version, -v  show the version

Configuration comes from the environment and a .env file in the working folder (docs/configuration.md):
PORT, HOST, DATA_DIR, DATABASE_URL, TELEGRAM_API_ID, TELEGRAM_API_HASH, TDLIB_BACKEND, PLUGINS, ...
`

export function parseCommand(args: readonly string[]): Command {
	const [first, ...rest] = args
	if (first === undefined) return { kind: 'serve' }
	let kind: Known | undefined
	if (first === '--help' || first === '-h' || first === 'help') kind = 'help'
	else if (first === '--version' || first === '-v') kind = 'version'
	else if (first === 'serve' || first === 'migrate' || first === SUPERVISOR_CHILD) kind = first
	if (kind === undefined) {
		return { kind: 'unknown', line: `unknown command ${JSON.stringify(first)}: see --help` }
	}
	if (rest.length > 0) {
		return {
			kind: 'unknown',
			line: `${first} takes no arguments (got ${JSON.stringify(rest[0])}): see --help`,
		}
	}
	return { kind }
}

export async function versionLine(): Promise<string> {
	const { version } = await import('../package.json')
	const { TD_SCHEMA } = await import('./telegram/schema')
	return `userbot-gateway ${version} (TDLib ${TD_SCHEMA.version}, Bun ${Bun.version})`
}
