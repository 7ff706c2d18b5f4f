import type { ClientOptions, TdRequest, TdUpdate } from '../../runtime/telegram/types'

/** What the cloud says about itself; the supervisor child sends it to the parent's log. */
export type CloudLog = (
	level: 'info' | 'warn' | 'error',
	msg: string,
	fields?: Record<string, unknown>,
) => void

/** Where an opened client's updates go, and what happens when its cloud goes away. */
export interface UpdateSink {
	update(update: TdUpdate): void
	/** The cloud host went away: the client's requests in flight are failed, it must be opened again. */
	lost(): void
}

/** One emulated client, as a backend reaches it in the cloud. */
export interface LinkedClient {
	invoke(request: TdRequest): Promise<unknown>
	close(): Promise<void>
	/** In the host's own process: its requests are never lost with a host. */
	readonly local?: boolean
}

/** How a backend reaches the cloud: in its own process (it is the host), or over the socket. */
export interface CloudLink {
	open(userbotId: number, client: ClientOptions, sink: UpdateSink): LinkedClient
}
