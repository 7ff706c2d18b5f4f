import { SUPERVISOR_CHILD } from '../runtime/supervisor/child-process'

/** The command line of `npm start` and of the compiled binary. */
type Known = 'serve' | 'migrate' | 'help' | 'version' | typeof SUPERVISOR_CHILD
export type Command =
	| { kind: Known }
	| { kind: 'backup' | 'restore'; path: string }
	| { kind: 'unknown'; line: string }

export const USAGE = `Usage: userbot-gateway [command]

Commands:
  serve          serve REST and WebSocket (the default): applies migrations first
  migrate        apply the database migrations and exit
  backup PATH    copy the database, secrets.json and the TDLib folders into the new folder PATH
                 (the server may run: docs/operator.md#backups)
  restore PATH   put the backup in PATH back into an empty DATA_DIR
  --help, -h     show this help
  --version, -v  show the version

Configuration comes from the environment and a .env file in the working folder (docs/configuration.md):
PORT, HOST, DATA_DIR, DATABASE_URL, TELEGRAM_API_ID, TELEGRAM_API_HASH, TDLIB_BACKEND, PLUGINS, ...
`

export function parseCommand(args: readonly string[]): Command {
	const [first, ...rest] = args
	if (first === undefined) return { kind: 'serve' }
	if (first === 'backup' || first === 'restore') {
		const [path, stray] = rest
		if (path === undefined || path === '' || stray !== undefined) {
			return { kind: 'unknown', line: `${first} takes one argument, a folder: ${first} PATH (see --help)` }
		}
		return { kind: first, path }
	}
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
	const { version } = await import('../../package.json')
	const { TD_SCHEMA } = await import('../runtime/telegram/schema')
	return `userbot-gateway ${version} (TDLib ${TD_SCHEMA.version}, Bun ${Bun.version})`
}
