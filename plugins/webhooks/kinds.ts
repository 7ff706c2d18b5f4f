import { isTdUpdate } from 'userbot-gateway/plugin'

export { isTdUpdate }

/**
 * What an endpoint may ask for beside TDLib's update kinds: the reply of a command sent with
 * `"webhook": true`, the userbot's authorization state, and its account status (`userbot.status`,
 * docs/flood-and-health.md). None of them is a numbered update: the hub hands them to its observers
 * beside the stream.
 */
export const ACCOUNT_EVENTS = ['command.result', 'userbot.state', 'userbot.status'] as const

/** Sent by POST /api/webhooks/{id}/test/ only; no endpoint subscribes to it. */
export const TEST_EVENT = 'webhook.test'

export const isEventName = (name: string): boolean =>
	isTdUpdate(name) || (ACCOUNT_EVENTS as readonly string[]).includes(name)
