/**
 * The command channel's public names, as both entries of the client publish them (the package's,
 * packages/client/src/index.ts, and the repository's `userbot-gateway/client`, src/public/client.ts):
 * each adds its own typed `createClient`.
 */
export type { BackoffOptions } from './backoff'
export { backoffDelay } from './backoff'
export { ClientError, CommandFailed } from './errors'
export type {
	ChatUpdate,
	CommandMap,
	RequestId,
	ResyncEvent,
	ServerMessage,
	UpdateEvent,
	UpdateFilter,
} from './types'
export {
	type Client,
	type ClientOptions,
	channelUrl,
	type SendOptions,
	type UpdateStream,
	type WebSocketConstructor,
} from './ws-client'
