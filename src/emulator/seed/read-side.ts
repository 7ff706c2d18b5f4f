import type * as Td from 'tdlib-types'
import { registerFile } from '../files'
import { formattedText } from '../objects'
import { contactsOf } from '../people'
import type { World } from '../world'

/**
 * The seed's side for reading: a longer history in the lounge (to page through), a photo and a
 * document with real bytes in Alice and Bob's chat, the lounge's photo, bios and contacts. Added
 * after the first seed's messages, so their ids stay what they were.
 */

/** A 4×4 PNG: real bytes a client can download and show. */
export const SEED_PHOTO_PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAMUlEQVR42g3HQQEAMAwCMYQhonJ4nhREVFglbPlFEhYRK6TBQ4adn+KSsv05fOTY4wHD0xUhbeYYmAAAAABJRU5ErkJggg==',
	'base64',
)
export const SEED_DOCUMENT_TEXT =
	'Emulator notes\nEvery seeded chat has a history; this document has real bytes.\n'

/** How many messages the lounge gets beyond its first three: enough for several pages. */
export const LOUNGE_EXTRA_MESSAGES = 40

const BIOS: Record<number, string> = {
	1001: 'Archer by name, tester by trade',
	1002: 'Bakes bread and bots',
	1003: 'Keeps the news channel',
}

function seedFile(world: World, uploaderId: number, name: string, mime: string, bytes: Uint8Array): Td.file {
	const id = world.nextFileId++
	registerFile(world, { id, name, mime, uploaderId, bytes })
	return {
		_: 'file',
		id,
		size: bytes.length,
		expected_size: bytes.length,
		local: {
			_: 'localFile',
			path: '',
			can_be_downloaded: true,
			can_be_deleted: false,
			is_downloading_active: false,
			is_downloading_completed: false,
			download_offset: 0,
			downloaded_prefix_size: 0,
			downloaded_size: 0,
		},
		remote: {
			_: 'remoteFile',
			id: `emulated-file-${id}`,
			unique_id: `u${id}`,
			is_uploading_active: false,
			is_uploading_completed: true,
			uploaded_size: bytes.length,
		},
	}
}

export function seedReadSide(world: World, lounge: number): void {
	for (const [id, bio] of Object.entries(BIOS)) {
		const user = world.users.get(Number(id))
		if (user) user.bio = bio
	}
	contactsOf(world, 1001).set(1002, { firstName: 'Bob', lastName: 'Baker' })
	contactsOf(world, 1001).set(1003, { firstName: 'Carol', lastName: 'Clark' })
	contactsOf(world, 1002).set(1001, { firstName: 'Alice', lastName: 'Archer' })

	const chat = world.groups.get(lounge)
	if (chat) {
		const speakers = [...chat.members.keys()]
		for (let i = 1; i <= LOUNGE_EXTRA_MESSAGES; i++) {
			const text = `Lounge chatter #${i}`
			world.addMessage(chat, speakers[i % speakers.length]!, { _: 'messageText', text: formattedText(text) })
		}
		chat.photoFileId = seedFile(
			world,
			chat.members.keys().next().value ?? 0,
			'lounge.png',
			'image/png',
			SEED_PHOTO_PNG,
		).id
	}

	const bob = world.privateChat(1001, 1002)
	if (!bob) return
	const photo = seedFile(world, 1002, 'sunset.png', 'image/png', SEED_PHOTO_PNG)
	world.addMessage(bob, 1002, {
		_: 'messagePhoto',
		photo: {
			_: 'photo',
			has_stickers: false,
			sizes: [{ _: 'photoSize', type: 'x', photo, width: 4, height: 4, progressive_sizes: [] }],
		},
		caption: formattedText('A sunset'),
		show_caption_above_media: false,
		has_spoiler: false,
		is_secret: false,
	})
	const document = seedFile(world, 1002, 'notes.txt', 'text/plain', Buffer.from(SEED_DOCUMENT_TEXT))
	world.addMessage(bob, 1002, {
		_: 'messageDocument',
		document: { _: 'document', file_name: 'notes.txt', mime_type: 'text/plain', document },
		caption: formattedText('The notes'),
	})

	// Carol's profile photo (getUserProfilePhotos), the last file seeded so the others keep their ids.
	const carol = world.users.get(1003)
	if (carol) {
		carol.photoFileId = seedFile(world, 1003, 'carol.png', 'image/png', SEED_PHOTO_PNG).id
		carol.photoDate = world.now()
	}
}
