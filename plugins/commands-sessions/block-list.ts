import type { BlockList$Input } from 'tdlib-types'
import { tdObjectField, tdSlot } from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { SessionsErrors as E } from './errors'

/** TDLib's block lists (`blockListMain`, `blockListStories`), read from its schema. */
const BLOCK_LIST = tdSlot('BlockList')

/** TDLib needs a list where the protocol lets it be left out (docs/tdlib-mapping.md#conventions). */
export const DEFAULT_BLOCK_LIST: BlockList$Input = { _: 'blockListMain' }

/**
 * `block_list`: a type name (`"blockListStories"`) or an object with `@type` (or `_`), checked
 * against TDLib's block list types; every way of being wrong is the spec's one string. Left out or
 * null, it is the default.
 */
export const blockListField = v.optional(
	v.pipe(
		v.unknown(),
		v.transform((x) => (x === null ? undefined : x)),
		tdObjectField<BlockList$Input>('block_list', BLOCK_LIST, { strings: true, message: E.BLOCK_LIST_TYPE }),
	),
)
