import type { Handlers } from './session'

/** Invite links (primary, additional, subscription), join requests, and joining by link. */
export const inviteHandlers: Handlers = {}
