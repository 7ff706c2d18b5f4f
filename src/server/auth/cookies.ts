/** Reads one cookie from a `Cookie` header without parsing the others (the hot path needs one). */
export function readCookie(header: string | null, name: string): string | null {
	if (!header) return null
	const prefix = `${name}=`
	for (const part of header.split(';')) {
		const p = part.trim()
		if (p.startsWith(prefix)) return p.slice(prefix.length) || null
	}
	return null
}

export const SESSION_COOKIE = 'sessionid'
export const CSRF_COOKIE = 'csrftoken'
