import { api } from '../../api'
import type { Userbot } from '../../rest-types'

export async function listUserbots(): Promise<Userbot[]> {
	const answer = await api<Userbot[]>('GET', '/api/userbots/')
	return answer.ok && Array.isArray(answer.data) ? answer.data : []
}
