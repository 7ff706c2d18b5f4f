import type { AppContext } from '../../context'
import type { StatusTracker } from '../status-tracker'
import type { UserbotClients } from './clients'
import type { UserbotStates } from './states'

/** What the lifecycle's operations share: built once per app by `UserbotService`. */
export interface LifecycleParts {
	ctx: AppContext
	states: UserbotStates
	clients: UserbotClients
	statuses: StatusTracker
	/** How long a log-in step's request (and each part of a delete's stop) may take. */
	stepDeadline: number
}
