import {
	CommandError,
	defineCommand,
	documented,
	fields,
	optionalInt,
	optionalText,
} from 'userbot-gateway/plugin'

/** Telegram's remote file ids are some 70 to 100 characters; anything this long is no id. */
const MAX_REMOTE_ID = 512

export const GetFileErrors = {
	FILE_REQUIRED: 'file_id or remote_file_id is required',
	REMOTE_ID_TOO_LONG: `remote_file_id must be at most ${MAX_REMOTE_ID} characters`,
} as const
const E = GetFileErrors

/**
 * `get_file {file_id | remote_file_id}` → `getFile` or `getRemoteFile`: TDLib's `file` of the
 * account, by TDLib's own file id or by the remote id Telegram gave it (`remote.id`, the Bot API's
 * `file_id`). Nothing is downloaded: its bytes are `GET /api/userbots/{id}/files/{file_id}`'s, by the
 * `id` of this answer (docs/read-side.md#files-out).
 */
export const getFile = defineCommand({
	name: 'get_file',
	policy: { action: 'read' },
	summary: "A file of the account: TDLib's `file`, by its TDLib id or its remote id.",
	result: {
		description:
			"TDLib's `file`: `id` (TDLib's, for the files route), `size`, `remote.id` and `remote.unique_id` (Telegram's), `local` (whether it is downloaded).",
		tdlib: 'file',
	},
	errors: [E.FILE_REQUIRED, E.REMOTE_ID_TOO_LONG],
	examples: [{ file_id: 5 }, { remote_file_id: 'emulated-file-5' }],
	methods: ['getFile', 'getRemoteFile'],
	input: fields({
		file_id: documented(optionalInt('file_id'), { description: "TDLib's file id (a message's `file.id`)" }),
		remote_file_id: documented(optionalText('remote_file_id'), {
			maxLength: MAX_REMOTE_ID,
			description: "Telegram's remote file id (`file.remote.id`, the Bot API's `file_id`)",
		}),
	}),
	run: (input, ctx) => {
		if (input.file_id !== undefined) return ctx.invoke({ _: 'getFile', file_id: input.file_id })
		if (!input.remote_file_id) throw new CommandError(E.FILE_REQUIRED)
		if (input.remote_file_id.length > MAX_REMOTE_ID) throw new CommandError(E.REMOTE_ID_TOO_LONG)
		return ctx.invoke({ _: 'getRemoteFile', remote_file_id: input.remote_file_id })
	},
})
