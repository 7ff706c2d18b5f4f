import type { Handlers } from './session'

/** Active sessions: the account's logged-in devices, one of them current; terminating and toggling them. */
export const sessionHandlers: Handlers = {}
