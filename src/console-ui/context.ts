import type { Connection } from './connection'

/** What every page is handed: who is signed in, the channel, and how to move on. */
export interface Me {
	id: number
	email: string
	first_name?: string
	last_name?: string
	is_owner: boolean
	company: { id: number; name: string } | null
	status?: { code: string; name: string }
}

export interface Ctx {
	families: { a: boolean; b: boolean }
	/** The server runs the Telegram emulator (TDLIB_BACKEND=emulator): its test numbers may be shown. */
	emulator: boolean
	me: Me | null
	conn: Connection | null
	/** What the next page shows once and clears: a success said on one page, read on the next (log in after registering). */
	flash: { message: string; email?: string } | null
	navigate(route: string): void
	/** After a login: reads the profile, opens the channel, shows the userbots. */
	signedIn(fresh?: boolean): Promise<void>
	signOut(): Promise<void>
}

export interface Page {
	element: HTMLElement
	dispose?(): void
}
