import type { Handlers } from './session'

/** Chat members: statuses, administrator rights and tags, bans, adding and removing, the event log. */
export const memberHandlers: Handlers = {}
