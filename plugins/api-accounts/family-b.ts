import type { RestContext } from 'userbot-gateway/plugin'
import type { MainServer } from './main-server'

/** What family B's routes are served with: the REST context and the main server it logs in against. */
export interface FamilyB {
	ctx: RestContext
	main: MainServer
}
