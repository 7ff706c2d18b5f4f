import { Elysia } from 'elysia'
import {
	type AccountFile,
	type AppContext,
	BOT_API_POLICY,
	policyHook,
	Refusal,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { BotError, commandError, failed, NOT_FOUND } from './answer'
import { tokenAdmission } from './token'

/**
 * The Bot API's downloads (docs/bot-api.md#files): `{server}/file/bot<token>/<file_path>`, the
 * `file_path` of getFile. As on Telegram the token is in the path (the access line names the
 * route's pattern, never the path). The path is the file's remote id: `get_file` finds the file
 * again (the command's policy entry, TDLib's `getRemoteFile`), and its bytes are the files route's
 * (`ctx.files.read`: its size limit, its download cache, TDLib's `downloadFile`), never a path of
 * the server's disk.
 */

/** A file_path longer than this is no remote id. */
const MAX_PATH = 512
/**
 * Each read waits up to FILE_DOWNLOAD_WAIT_MS for TDLib's download; a download still running is
 * asked again, this many times in all, before the answer says to try later.
 */
const READ_ROUNDS = 10
/** What the route reads through TDLib at a time (a file on another host's disk). */
const PART_BYTES = 256 * 1024

/** `get_file` refusing the path (TDLib cannot read the id, the account has no such file) is Telegram's 404. */
function notFoundUnlessLimit(error: string, result: unknown): BotError {
	const err = commandError(error, result)
	return err.code === 400 ? NOT_FOUND : err
}

function readError(err: unknown): BotError {
	if (!(err instanceof Refusal)) throw err
	if (err.status === 404) return NOT_FOUND
	if (err.status === 413) return new BotError(400, 'Bad Request: file is too big')
	return new BotError(500, 'Internal Server Error')
}

/** Bytes start..end of a file read through TDLib, part by part as the client reads. */
function partStream(read: (offset: number, count: number) => Promise<Uint8Array>, size: number) {
	let at = 0
	return new ReadableStream<Uint8Array>(
		{
			async pull(controller) {
				if (at >= size) return controller.close()
				const bytes = await read(at, Math.min(PART_BYTES, size - at))
				if (bytes.length === 0) return controller.error(new Error('the file ended before its size'))
				at += bytes.length
				controller.enqueue(bytes)
				if (at >= size) controller.close()
			},
		},
		{ highWaterMark: 0 },
	)
}

/** The bytes, always as an attachment that cannot run as a page of the gateway's origin. */
function bytesOf(file: Extract<AccountFile, { ready: true }>): Response {
	const blob = file.path ? Bun.file(file.path) : undefined
	const type = Bun.file(file.name).type
	const headers = {
		'content-type': type || 'application/octet-stream',
		'content-disposition': 'attachment',
		'cache-control': 'private, no-cache',
		'x-content-type-options': 'nosniff',
		'content-security-policy': "default-src 'none'; sandbox",
	}
	if (blob) return new Response(blob, { headers })
	if (!file.read || file.size === 0) return new Response(null, { headers })
	return new Response(partStream(file.read, file.size), {
		headers: { ...headers, 'content-length': String(file.size) },
	})
}

export function botFileRoutes(ctx: AppContext): Elysia {
	const admit = tokenAdmission(ctx)
	const serve = async ({ request, params }: { request: Request; params: Record<string, string> }) => {
		try {
			// The methods' entry (BOT_API_POLICY, token.ts): the token's key, and only its one userbot.
			const { principal, userbotId } = await admit(request, params)
			let remoteId: string
			try {
				remoteId = decodeURIComponent(params.file_path ?? '')
			} catch {
				throw NOT_FOUND
			}
			if (remoteId === '' || remoteId.length > MAX_PATH) throw NOT_FOUND
			const input = { remote_file_id: remoteId }
			const answer = await ctx.runCommand(principal, userbotId, 'get_file', input, request.signal)
			if (!answer.ok) throw notFoundUnlessLimit(answer.error, answer.result)
			const fileId = (answer.result as { id?: unknown } | undefined)?.id
			if (typeof fileId !== 'number') throw NOT_FOUND
			for (let round = 0; round < READ_ROUNDS && !request.signal.aborted; round++) {
				const file = await ctx.files.read(principal, userbotId, fileId).catch((err: unknown) => {
					throw readError(err)
				})
				if (file.ready) return bytesOf(file)
			}
			throw new BotError(500, 'Internal Server Error: the file is still being downloaded, try again')
		} catch (err) {
			if (err instanceof BotError) return failed(err)
			ctx.log.error('bot api download failed', { error: err instanceof Error ? err : String(err) })
			return failed(new BotError(500, 'Internal Server Error'))
		}
	}
	return new Elysia({ name: 'bot-api-files' }).get('/file/bot:token/:file_path', serve, {
		...policyHook(BOT_API_POLICY),
		response: {
			200: v.pipe(v.string(), v.metadata({ format: 'binary' }), v.description("the file's bytes")),
		},
		detail: {
			operationId: 'getBotApiFile',
			summary: "A file of the token's userbot by getFile's file_path (docs/bot-api.md#files)",
			tags: ['bot-api'],
			security: [],
		},
	}) as unknown as Elysia
}
