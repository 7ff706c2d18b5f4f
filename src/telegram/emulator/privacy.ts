import type { Handlers } from './session'

/** Block lists, privacy setting rules and new-chat privacy of each account. */
export const privacyHandlers: Handlers = {}
