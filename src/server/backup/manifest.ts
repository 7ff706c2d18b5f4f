import * as v from 'valibot'

/** `manifest.json` at the top of a backup folder: what `restore` checks before it copies anything. */
export const MANIFEST = 'manifest.json'
export const FORMAT = 'userbot-gateway-backup'

export const ManifestSchema = v.object({
	format: v.literal(FORMAT),
	version: v.literal(1),
	created_at: v.string(),
	/** The live userbots of the database copy, whose TDLib folders are in `tdlib/`. */
	userbots: v.array(v.pipe(v.number(), v.integer(), v.minValue(1))),
	/**
	 * Whether clients ran while it was taken: then their folders hold TDLib's binlog (the
	 * authorization) without its SQLite cache and downloaded files (docs/operator.md#backups).
	 */
	clients_running: v.boolean(),
})

export type Manifest = v.InferOutput<typeof ManifestSchema>
