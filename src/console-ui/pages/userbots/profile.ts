/// <reference lib="dom" />
import type { Ctx } from '../../context'
import { h } from '../../dom'

/**
 * The Telegram profile of a logged-in userbot: `get_me` on the channel (name, @username, photo id),
 * and the photo itself through the files route, read into a data: URL (the page's CSP allows images
 * from itself and data: only, not blob:). Asked once per userbot and page; a failure leaves the
 * initials.
 */
export interface Profile {
	name: string
	username: string | null
	photoFileId: number | null
}

type TdUser = {
	first_name?: string
	last_name?: string
	usernames?: { active_usernames?: string[] } | null
	profile_photo?: { small?: { id?: number } } | null
}

export function profileOf(result: unknown): Profile | null {
	if (!result || typeof result !== 'object') return null
	const u = result as TdUser
	const name = [u.first_name, u.last_name].filter(Boolean).join(' ')
	return {
		name,
		username: u.usernames?.active_usernames?.[0] ?? null,
		photoFileId: typeof u.profile_photo?.small?.id === 'number' ? u.profile_photo.small.id : null,
	}
}

export async function loadProfile(ctx: Ctx, userbotId: number): Promise<Profile | null> {
	if (!ctx.conn) return null
	try {
		const payload = await ctx.conn.run({ action: 'get_me', userbot_id: userbotId })
		return payload.type === 'get_me' ? profileOf(payload.result) : null
	} catch {
		return null
	}
}

/** The photo as a data: URL, or null while TDLib still downloads it (202) or when there is none. */
export async function loadPhoto(userbotId: number, fileId: number): Promise<string | null> {
	const res = await fetch(`/api/userbots/${userbotId}/files/${fileId}`, { credentials: 'same-origin' })
	if (res.status !== 200) return null
	const blob = await res.blob()
	if (!blob.type.startsWith('image/')) return null
	return new Promise((resolve) => {
		const reader = new FileReader()
		reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : null)
		reader.onerror = () => resolve(null)
		reader.readAsDataURL(blob)
	})
}

/** A round picture: the photo when there is one, else the initials of the name. */
export function avatar(name: string, photo: string | null): HTMLElement {
	if (photo) return h('img', { class: 'avatar', attrs: { src: photo, alt: '', 'data-avatar': 'photo' } })
	const initials =
		name
			.split(/\s+/)
			.filter(Boolean)
			.slice(0, 2)
			.map((w) => w.charAt(0).toUpperCase())
			.join('') || '?'
	return h('span', { class: 'avatar', attrs: { 'aria-hidden': 'true', 'data-avatar': 'initials' } }, initials)
}
