import {
	CommandError,
	checkTdFunction,
	defineCommand,
	documented,
	fields,
	isObject,
	isTdFunction,
	type JsonObject,
	requiredValue,
	type TdMethod,
	TdObjectError,
	typeOf,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { isDenied } from './deny'
import { TdInvokeErrors as E } from './errors'
import { isReadMethod } from './sets'

/** How a client names an uploaded file in `inputFileLocal.path`: `upload:<name>`, as media fields do. */
const UPLOAD = 'upload:'

/**
 * `request`: a whole TDLib request, checked in this order, each failure its own string: td_invoke
 * enabled at all; an object whose `@type` (or `_`) is a string; a TDLib 1.8.65 function; not on the
 * deny-list; on the operator's allow-list; then every field against the schema (the validator's
 * messages, naming the path, never a value). An `inputFileLocal` may only name an uploaded file of the
 * userbot, as `upload:<name>`.
 */
function requestField(allowed: ReadonlySet<string>) {
	return v.pipe(
		documented(
			requiredValue(E.REQUEST_REQUIRED),
			{
				type: 'object',
				description:
					"A whole TDLib 1.8.65 request: `@type` (or `_`) names the method, one of the operator's allow-list (TD_INVOKE_METHODS); checked whole against TDLib's schema; an `inputFileLocal` names an uploaded file as `upload:<name>`",
				properties: { '@type': { type: 'string' }, _: { type: 'string' } },
				// The method's own fields, whichever it is (a typed client takes them).
				additionalProperties: true,
			},
			// The validator's messages, built as they go, name the path inside `request`.
			{ errorsNaming: 'request' },
		),
		v.rawTransform(({ dataset, addIssue, NEVER }) => {
			const fail = (message: string) => {
				addIssue({ message })
				return NEVER
			}
			if (allowed.size === 0) return fail(E.DISABLED)
			const request = dataset.value
			const method = typeOf(request)
			if (!isObject(request) || method === undefined) return fail(E.REQUEST_TYPE)
			if (!isTdFunction(method)) return fail(E.UNKNOWN_METHOD)
			if (isDenied(method)) return fail(E.DENIED)
			if (!allowed.has(method)) return fail(E.NOT_ALLOWED)
			try {
				const localFile = (path: unknown) => typeof path === 'string' && path.startsWith(UPLOAD)
				return checkTdFunction(request, method, { path: 'request', localFile }) as JsonObject
			} catch (err) {
				if (err instanceof TdObjectError) return fail(err.message)
				throw err
			}
		}),
	)
}

/** Every `inputFileLocal` of the checked request, whose `path` is `upload:<name>` (the walk allowed no other). */
function localFiles(x: unknown, found: JsonObject[] = []): JsonObject[] {
	if (Array.isArray(x)) for (const item of x) localFiles(item, found)
	else if (isObject(x)) {
		if (x._ === 'inputFileLocal') found.push(x)
		else for (const value of Object.values(x)) localFiles(value, found)
	}
	return found
}

/**
 * `td_invoke` → the method its `request` names, one of `methods` (the allow-list, fixed when the
 * plugin loads); TDLib's answer as it is, TDLib's error as TDLib wrote it. Owner only, or an API key
 * with the `td_invoke` scope (docs/policy.md); audited with the method's name, never the request's
 * values.
 */
export function tdInvokeCommand(methods: readonly string[]) {
	const allowed: ReadonlySet<string> = new Set(methods)
	return defineCommand({
		name: 'td_invoke',
		// Destructive (what an MCP tool's destructiveHint says) once the list holds more than reads:
		// deleting chats and messages is then one request away.
		policy: methods.every(isReadMethod)
			? { action: 'manage', tdInvoke: true }
			: { action: 'manage', tdInvoke: true, destructive: true },
		summary:
			"Sends any TDLib method the operator allows (TD_INVOKE_METHODS; off by default), as TDLib's own object: TDLib's answer as it is. The owner, or an API key with the `td_invoke` scope.",
		result: { description: "TDLib's answer to the request, as TDLib wrote it." },
		examples: [{ request: { '@type': 'getChat', chat_id: 1001 } }, { request: { _: 'getMe' } }],
		errors: [E.DISABLED, E.REQUEST_TYPE, E.UNKNOWN_METHOD, E.DENIED, E.NOT_ALLOWED, E.UPLOAD_NOT_FOUND],
		methods: methods as readonly TdMethod[],
		// Each request waits for its method's flood budget (sendMessage for `send`, getChats for `dialogs`).
		flood: 'by_method',
		audit: { action: 'td.invoked', detail: (input) => ({ method: String(input.request._) }) },
		input: fields({ request: requestField(allowed) }),
		run: async (input, ctx) => {
			const request = input.request
			for (const file of localFiles(request)) {
				const path = await ctx.uploadedFilePath(String(file.path).slice(UPLOAD.length))
				if (path === null) throw new CommandError(E.UPLOAD_NOT_FOUND)
				file.path = path
			}
			return ctx.invoke(request as Parameters<typeof ctx.invoke>[0])
		},
	})
}
