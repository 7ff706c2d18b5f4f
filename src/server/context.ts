import type { Database } from '../../db/client'
import type { UserbotSealing } from '../common/util/key-crypto'
import type { Logger } from '../common/util/logger'
import type { Bus } from '../runtime/bus/types'
import type { TelegramRuntime } from '../runtime/supervisor/types'
import type { AuthServices } from './auth/services'
import type { Principal } from './auth/types'
import type { CatalogCommand } from './catalog/catalog'
import type { CommandGroup } from './commands/define'
import type { Config } from './config'
import type { Metrics } from './metrics/metrics'
import type { PolicyEntry } from './policy/entry'
import type { UpdateHub } from './updates/hub'
import type { KeyWebhooks } from './updates/key-webhooks'

/** A message pushed to every open WebSocket connection of a company (authorization states...). */
export interface CompanyEvent {
	companyId: number
	/** The userbot the message is about, if one: an API key's socket hears only of its own userbots. */
	userbotId?: number
	message: unknown
}

/**
 * Everything a plugin may use, built once per app by `createApp`. There is no module-level state:
 * two apps in one process (as tests build them) share nothing.
 */
export interface AppContext {
	config: Config
	db: Database
	log: Logger
	/** Who is calling, and the services an account family is built from (src/server/auth/services.ts). */
	auth: AuthServices
	/** The Telegram runtime, or null when no backend is configured (creating a userbot then answers 503). */
	runtime: TelegramRuntime | null
	/** Each userbot's live updates: numbered, kept for resume, sent to subscribed connections. */
	updates: UpdateHub
	/** Company-scoped, cached userbot lookup (the gateway's hot path). */
	userbots: UserbotDirectory
	/**
	 * Each userbot's secrets at rest (its TDLib database key, its proxy's password), sealed and
	 * opened with the server's data key by the core's one implementation (src/common/util/key-crypto.ts).
	 */
	sealing: UserbotSealing
	/** Command groups register here while plugins are built; the gateway serves them. */
	registerCommands(group: CommandGroup): void
	/**
	 * The one owner of the userbots' states makes itself known here, once, while plugins are built
	 * (the userbots plugin's, plugins/userbots/lifecycle/states.ts): the gateway asks it whether an
	 * account is ready. With none, the runtime's own view answers.
	 */
	registerStates(owner: UserbotStateReader): void
	/**
	 * The userbots' media as the files routes keep and serve them (docs/read-side.md#files-out):
	 * the userbots plugin registers them once (`registerFiles`); the Bot API face stores its
	 * multipart uploads and serves its downloads through them. Unregistered, every call fails.
	 */
	files: UserbotFiles
	registerFiles(owner: UserbotFiles): void
	/**
	 * Webhook endpoints owned by one API key (the Bot API face's setWebhook, src/server/updates/key-webhooks.ts):
	 * the webhooks plugin registers them once while plugins are built; `keyWebhooks()` is null without it.
	 */
	registerKeyWebhooks(owner: KeyWebhooks): void
	keyWebhooks(): KeyWebhooks | null
	/** Pushes a message to the company's open WebSocket connections. */
	publish(event: CompanyEvent): void
	/** The app's Prometheus metrics (src/server/metrics): recorded always, served only as configured. */
	metrics: Metrics
	/** Resources to release when the app closes, last registered first. */
	onClose(fn: () => Promise<void> | void): void
	/** The bus (issue 26: the webhooks' JetStream outbox), when this gateway runs on one. */
	bus?: Bus
	/**
	 * Runs a command for a principal without a socket, through the WebSocket's own dispatcher (the
	 * Bot API face): ready once the gateway is built, after the plugins; before, and without the
	 * WebSocket channel, it answers `runtime unavailable`.
	 */
	runCommand(
		principal: Principal,
		userbotId: number,
		action: string,
		input: Record<string, unknown>,
		signal?: AbortSignal,
	): Promise<CommandAnswer>
	/**
	 * The commands the gateway serves, in the catalog's order, each as the catalog tells it (input
	 * schema, result, errors) with its whole policy entry: what the MCP face makes its tools of, a
	 * third party's group included. Ready once the gateway is built, after the plugins (ask it when a
	 * request comes); before, and without the WebSocket channel, empty.
	 */
	servedCommands(): readonly ServedCommand[]
}

/** A command the gateway serves: its catalog entry and its policy entry. */
export interface ServedCommand {
	catalog: CatalogCommand
	policy: PolicyEntry
}

/** A command's one answer: its result, or its wire error (and a partial result). */
export type CommandAnswer = { ok: true; result: unknown } | { ok: false; error: string; result?: unknown }

/**
 * The part of the context a REST family needs (configuration, database, log, auth services): what
 * the account plugins' routes are built on, by the app or by the edge entry (src/platform/edge/app.ts), which
 * has no runtime, update hub or gateway.
 */
export type RestContext = Pick<AppContext, 'config' | 'db' | 'log' | 'auth'>

/** What an upload is read from: a multipart `File`, or anything that streams its bytes. */
export interface UploadedFile {
	name: string
	size: number
	stream(): ReadableStream<Uint8Array>
}

/** A file of an account, ready to stream (a path on this host, or parts read through TDLib), or still on its way. */
export type AccountFile =
	| {
			ready: true
			name: string
			size: number
			etag: string
			path?: string
			read?: (offset: number, count: number) => Promise<Uint8Array>
	  }
	| { ready: false; downloaded_size: number; expected_size: number }

/** The narrow part of the userbots' files a face other than REST needs (`ctx.files`). */
export interface UserbotFiles {
	/** Stores an upload of the userbot within its quotas, as `POST /api/userbots/{id}/files/` does: its name. */
	upload(principal: Principal, userbotId: number, file: UploadedFile): Promise<{ file: string; size: number }>
	/** Removes an upload `upload` stored (by its name), once the send that used it is over. */
	discard(userbotId: number, name: string): Promise<void>
	/** A file of the account by TDLib's file id, as `GET /api/userbots/{id}/files/{file_id}` reads it. */
	read(principal: Principal, userbotId: number, fileId: number): Promise<AccountFile>
}

/** Where a userbot's client is, as the owner of its state answers it. */
export interface UserbotStateReader {
	/** TDLib's authorization state of the client running now; undefined when none runs (yet). */
	authorizationState(userbotId: number): string | undefined
}

/** Where a userbot belongs, as the gateway and the REST routes need to know it on every request. */
export interface UserbotRecord {
	id: number
	companyId: number
}

/**
 * Company-scoped lookup of userbots, cached for the command hot path. Whoever deletes a userbot or
 * moves it must call `invalidate`, so a deleted userbot answers `userbot not found` at once.
 */
export interface UserbotDirectory {
	/** The live (not deleted) userbot, or null. */
	lookup(userbotId: number): Promise<UserbotRecord | null>
	/**
	 * As `lookup`, from memory alone: the userbot when its answer is cached, null when it is deleted,
	 * undefined when only `lookup` can tell (the Bot API face admits a token without a promise).
	 */
	lookupNow?(userbotId: number): UserbotRecord | null | undefined
	invalidate(userbotId: number): void
	/**
	 * The userbot is being deleted: from now on it is not found, before its row says so (a delete
	 * frees its folders first and writes the row last). Ids are never reused.
	 */
	markDeleted(userbotId: number): void
	/** Forgets every cached answer (the bus: invalidations from other gateways may have been missed). */
	invalidateAll?(): void
}
