import { fieldsOf } from '../../gateway/schema-fields'
import { getTestInstance } from '../../helpers'
import type { CatalogEntry } from '../../reliability/frame-arbitraries'
import type { Route } from '../../reliability/rest-arbitraries'
import { type BenchServer, childrenOf, loggedInUserbot, type Owner, signUp } from './server'

/** What every scenario of the report runs against: the server, two companies, their userbots. */
export interface World {
	server: BenchServer
	alice: Owner
	mallory: Owner
	/** Bob's emulated account, alice's company. */
	userbotId: number
	/** Dave's, mallory's company. */
	foreignUserbotId: number
	/** Alice's emulated account, alice's company: bulk traffic that reaches no other stream. */
	bulkUserbotId: number
}

export async function makeWorld(server: BenchServer, tag: string): Promise<World> {
	const alice = await signUp(server.url, `alice-${tag}@example.com`)
	const mallory = await signUp(server.url, `mallory-${tag}@example.com`)
	return {
		server,
		alice,
		mallory,
		userbotId: await loggedInUserbot(server.url, alice, '9996621234'),
		foreignUserbotId: await loggedInUserbot(server.url, mallory, '9996614444'),
		bulkUserbotId: await loggedInUserbot(server.url, alice, '9996611111'),
	}
}

/** The supervisor child of the server (its one child process). */
export function supervisorPid(server: BenchServer): number | undefined {
	return childrenOf(server.pid)[0]
}

/** The commands and routes an app of this build serves (read from an app in this process). */
export async function catalog(): Promise<{ commands: CatalogEntry[]; routes: Route[] }> {
	const t = await getTestInstance({}, { listen: false })
	try {
		return {
			commands: [...t.commands].map(([name, { command }]) => ({ name, fields: fieldsOf(command.input) })),
			routes: t.app.routes
				.filter((r) => r.method !== 'WS' && r.method !== 'ALL')
				.map((r) => ({ method: r.method, path: r.path })),
		}
	} finally {
		await t.stop()
	}
}
