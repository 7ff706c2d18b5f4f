import type { Handlers } from './session'

/** Two-step verification: the password state machine, recovery e-mail and codes, account TTL, ownership-transfer checks. */
export const passwordHandlers: Handlers = {}
