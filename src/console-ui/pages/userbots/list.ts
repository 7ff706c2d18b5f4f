import { api } from '../../api'

/** A userbot as `GET /api/userbots/` lists it (the fields the console reads). */
export interface Userbot {
	id: number
	name: string
	phone_number: string | null
	authorization_state: string
	status?: string
	proxy?: { type: string; server: string; port: number } | null
}

export async function listUserbots(): Promise<Userbot[]> {
	const answer = await api<Userbot[]>('GET', '/api/userbots/')
	return answer.ok && Array.isArray(answer.data) ? answer.data : []
}
