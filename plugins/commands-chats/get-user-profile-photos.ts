import { defineCommand, fields, requiredInt } from 'userbot-gateway/plugin'
import { ChatsErrors as E, MAX_PROFILE_PHOTOS } from './errors'
import { pageLimit, pageOffset } from './limits'

/**
 * `get_user_profile_photos {user_id, offset?, limit?}` → `getUserProfilePhotos`: a user's profile
 * photos, newest first, `offset` skipped, at most `limit` (default and most: 100, as the Bot API's).
 */
export const getUserProfilePhotos = defineCommand({
	name: 'get_user_profile_photos',
	policy: { action: 'read' },
	summary: "A user's profile photos, newest first, each in its sizes.",
	result: {
		description: "TDLib's `chatPhotos`: `total_count` and a page of `chatPhoto`s.",
		tdlib: 'chatPhotos',
	},
	examples: [{ user_id: 1003 }, { user_id: 1003, offset: 0, limit: 10 }],
	methods: ['getUserProfilePhotos'],
	input: fields({
		user_id: requiredInt('user_id', E.USER_ID_REQUIRED),
		offset: pageOffset,
		limit: pageLimit(MAX_PROFILE_PHOTOS, E.PHOTOS_LIMIT_RANGE, MAX_PROFILE_PHOTOS),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'getUserProfilePhotos',
			user_id: input.user_id,
			offset: input.offset ?? 0,
			limit: input.limit ?? MAX_PROFILE_PHOTOS,
		}),
})
