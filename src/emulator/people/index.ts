import type * as Td from 'tdlib-types'
import { fileRecord, fileView } from '../files'
import { formattedText, userObject } from '../objects'
import { fail, type Handlers, OK, type Session } from '../session'
import type { World } from '../world'

/**
 * People: a user's full profile (`getUserFullInfo`) and the account's contacts (`getContacts`,
 * `importContacts`, `removeContacts`, `searchContacts`), kept per account in the cloud as the
 * server keeps an address book.
 */

interface ContactRecord {
	firstName: string
	lastName: string
}

/** Each account's contacts: user id → the name it saved them under. */
export const contactBook = (world: World) =>
	world.store<{ byOwner: Map<number, Map<number, ContactRecord>> }>('contacts', () => ({
		byOwner: new Map(),
	}))

export function contactsOf(world: World, ownerId: number): Map<number, ContactRecord> {
	const book = contactBook(world).byOwner
	let mine = book.get(ownerId)
	if (!mine) {
		mine = new Map()
		book.set(ownerId, mine)
	}
	return mine
}

/** Contacts in TDLib's order: by name as saved, then id. */
function sortedContacts(s: Session): number[] {
	const mine = contactsOf(s.world, s.userId)
	const name = (id: number) => {
		const c = mine.get(id)!
		return `${c.firstName} ${c.lastName}`.toLowerCase()
	}
	return [...mine.keys()].sort((a, b) => name(a).localeCompare(name(b)) || a - b)
}

const groupsInCommon = (world: World, a: number, b: number) =>
	[...world.groups.values()].filter((c) => c.members.has(a) && c.members.has(b)).length

const NO_GIFTS: Td.giftSettings = {
	_: 'giftSettings',
	show_gift_button: false,
	accepted_gift_types: {
		_: 'acceptedGiftTypes',
		unlimited_gifts: true,
		limited_gifts: true,
		upgraded_gifts: true,
		gifts_from_channels: true,
		premium_subscription: true,
	},
}

export const peopleHandlers: Handlers = {
	getUserFullInfo(s, req) {
		const userId = req.user_id ?? 0
		if (userId <= 0) fail('Invalid user identifier')
		const user = s.world.users.get(userId) ?? fail('User not found')
		return {
			_: 'userFullInfo',
			can_be_called: userId !== s.userId,
			supports_video_calls: userId !== s.userId,
			has_private_calls: false,
			has_private_forwards: false,
			has_restricted_voice_and_video_note_messages: false,
			has_posted_to_profile_stories: false,
			has_sponsored_messages_enabled: false,
			need_phone_number_privacy_exception: false,
			set_chat_background: false,
			uses_unofficial_app: false,
			bio: formattedText(user.bio ?? ''),
			personal_chat_id: 0,
			gift_count: 0,
			group_in_common_count: userId === s.userId ? 0 : groupsInCommon(s.world, s.userId, userId),
			incoming_paid_message_star_count: 0,
			outgoing_paid_message_star_count: 0,
			gift_settings: NO_GIFTS,
			pending_rating_date: 0,
		}
	},
	/**
	 * A user's profile photos, newest first: the emulator keeps one at most (its file in one size, as
	 * for group photos). TDLib checks offset and limit before anything else.
	 */
	getUserProfilePhotos(s, req) {
		const offset = req.offset ?? 0
		const limit = req.limit ?? 0
		if (offset < 0) fail('Parameter offset must be non-negative')
		if (limit <= 0) fail('Parameter limit must be positive')
		const userId = req.user_id ?? 0
		if (userId <= 0) fail('Invalid user identifier')
		const user = s.world.users.get(userId) ?? fail('User not found')
		const record = user.photoFileId ? fileRecord(s.world, user.photoFileId) : undefined
		if (!record) return { _: 'chatPhotos', total_count: 0, photos: [] }
		const photo: Td.chatPhoto = {
			_: 'chatPhoto',
			id: String(record.id),
			added_date: user.photoDate ?? 0,
			sizes: [
				{ _: 'photoSize', type: 'x', photo: fileView(s, record), width: 4, height: 4, progressive_sizes: [] },
			],
		}
		return { _: 'chatPhotos', total_count: 1, photos: offset === 0 ? [photo] : [] }
	},
	getContacts(s) {
		const ids = sortedContacts(s)
		return { _: 'users', total_count: ids.length, user_ids: ids }
	},
	/**
	 * Saves each contact by phone number: a registered user's id (and the name saved for them), 0
	 * for a number nobody has; `importer_count` is 0 for the registered ones, as the server says.
	 */
	importContacts(s, req) {
		const contacts = req.contacts ?? []
		const mine = contactsOf(s.world, s.userId)
		const user_ids = contacts.map((c) => {
			const phone = (c.phone_number ?? '').replace(/\D/g, '')
			const user = phone ? s.world.userByPhone(phone) : undefined
			if (!user || user.id === s.userId) return 0
			mine.set(user.id, { firstName: c.first_name?.trim() ?? '', lastName: c.last_name?.trim() ?? '' })
			return user.id
		})
		return { _: 'importedContacts', user_ids, importer_count: user_ids.map(() => 0) }
	},
	/**
	 * A user by phone number: with `only_local`, one whose number this account sees (its contacts, as
	 * TDLib's cache of resolved numbers holds them), else TDLib's 404; otherwise the server's
	 * contacts.resolvePhone, which finds any registered number.
	 */
	searchUserByPhoneNumber(s, req) {
		const phone = (req.phone_number ?? '').replace(/\D/g, '')
		if (!phone) fail('Phone number is invalid')
		const found = s.world.userByPhone(phone)
		const seen = found && (found.id === s.userId || contactsOf(s.world, s.userId).has(found.id))
		const user = req.only_local
			? ((seen ? found : undefined) ?? fail('Not Found', 404))
			: (found ?? fail('PHONE_NOT_OCCUPIED'))
		return { ...userObject(user, s.userId), ...contactFlags(s.world, s.userId, user.id) }
	},
	removeContacts(s, req) {
		const mine = contactsOf(s.world, s.userId)
		for (const id of req.user_ids ?? []) mine.delete(id)
		return OK
	},
	/** Contacts whose saved name or username has a word starting with each word of the query. */
	searchContacts(s, req) {
		const limit = req.limit ?? 0
		if (limit <= 0) fail('Parameter limit must be positive')
		const words = (req.query ?? '').toLowerCase().split(/\s+/).filter(Boolean)
		const mine = contactsOf(s.world, s.userId)
		const ids = sortedContacts(s).filter((id) => {
			const c = mine.get(id)!
			const names = `${c.firstName} ${c.lastName} ${s.world.users.get(id)?.username ?? ''}`
				.toLowerCase()
				.split(/\s+/)
			return words.every((w) => names.some((n) => n.startsWith(w)))
		})
		return { _: 'users', total_count: ids.length, user_ids: ids.slice(0, limit) }
	},
}

/** `user.is_contact`/`is_mutual_contact` as `viewerId` sees `userId`. */
export function contactFlags(world: World, viewerId: number, userId: number) {
	const isContact = contactsOf(world, viewerId).has(userId)
	return { is_contact: isContact, is_mutual_contact: isContact && contactsOf(world, userId).has(viewerId) }
}
