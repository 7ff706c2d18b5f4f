import type { Row } from './clients'
import { type ProxyView, proxyView } from './proxy-settings'
import type { UserbotStates } from './states'
import type { StatusTracker } from './status-tracker'

/** A userbot as its faces show it: the routes' and commands' answer, never a secret. */
export interface UserbotView {
	id: number
	name: string
	phone_number: string | null
	authorization_state: string
	/** The account's health (docs/flood-and-health.md); `status_until` while it cools down. */
	status: string
	status_until?: number
	/** Its proxy without the password or secret, and the last health check (docs/operator.md#userbot-proxies). */
	proxy: ProxyView | null
}

/** The view of `row`: its state and health as their owners know them now, else as stored. */
export function userbotView(row: Row, states: UserbotStates, statuses: StatusTracker): UserbotView {
	const health = statuses.current(row.id) ?? {
		status: row.status,
		until: row.statusUntil ?? undefined,
	}
	const view: UserbotView = {
		id: row.id,
		name: row.name,
		phone_number: row.phoneNumber,
		authorization_state: states.current(row.id, row.authorizationState),
		status: health.status,
		proxy: proxyView(row.proxy, row.proxySecret, row.proxyCheck),
	}
	if (health.status === 'cooling_down' && health.until !== undefined) view.status_until = health.until
	return view
}
