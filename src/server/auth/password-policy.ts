import { dictionary } from '@zxcvbn-ts/language-common'

/**
 * Django's default password validators, for register, check-password and reset alike, in Django's
 * order and words: user-attribute similarity, minimum length, common passwords, numeric. Returns
 * every problem found.
 */
export const MIN_PASSWORD_LENGTH = 8
export const MAX_PASSWORD_LENGTH = 128
const MAX_SIMILARITY = 0.7

/** zxcvbn's list of common passwords (about 49,000), compared case-insensitively as Django does. */
const COMMON = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()))

export interface UserAttributes {
	email?: string
	first_name?: string
	last_name?: string
}

/** Django's attribute order and verbose names (`email` is "email address" on Django's user). */
const LABELS: Record<keyof UserAttributes, string> = {
	first_name: 'first name',
	last_name: 'last name',
	email: 'email address',
}

export function validatePassword(password: string, user: UserAttributes = {}): string[] {
	const problems: string[] = []
	const similar = similarAttribute(password, user)
	if (similar) problems.push(`The password is too similar to the ${LABELS[similar]}.`)
	if (password.length < MIN_PASSWORD_LENGTH) {
		problems.push(`This password is too short. It must contain at least ${MIN_PASSWORD_LENGTH} characters.`)
	}
	if (COMMON.has(password.toLowerCase().trim())) problems.push('This password is too common.')
	if (/^\d+$/.test(password)) problems.push('This password is entirely numeric.')
	return problems
}

function similarAttribute(password: string, user: UserAttributes): keyof UserAttributes | null {
	const pw = password.toLowerCase()
	for (const key of Object.keys(LABELS) as Array<keyof UserAttributes>) {
		const value = user[key]
		if (!value) continue
		const parts = [...value.split(/\W+/), value]
		for (const part of parts) {
			const p = part.toLowerCase()
			if (!p || exceedsMaximumLengthRatio(pw, p)) continue
			if (quickRatio(pw, p) >= MAX_SIMILARITY && ratio(pw, p) >= MAX_SIMILARITY) return key
		}
	}
	return null
}

/** Django's shortcut: a password ten times longer than a short attribute cannot be too similar. */
function exceedsMaximumLengthRatio(password: string, value: string): boolean {
	return password.length >= 10 * value.length && value.length < (MAX_SIMILARITY / 2) * password.length
}

/** difflib's quick_ratio: an upper bound of `ratio` from the shared multiset of characters. */
function quickRatio(a: string, b: string): number {
	const counts = new Map<string, number>()
	for (const c of b) counts.set(c, (counts.get(c) ?? 0) + 1)
	let matches = 0
	for (const c of a) {
		const n = counts.get(c) ?? 0
		if (n > 0) {
			matches++
			counts.set(c, n - 1)
		}
	}
	return (2 * matches) / (a.length + b.length)
}

/** difflib's SequenceMatcher.ratio without the junk heuristics: matching blocks, recursively. */
function ratio(a: string, b: string): number {
	return (2 * matchingChars(a, b)) / (a.length + b.length)
}

function matchingChars(a: string, b: string): number {
	if (!a.length || !b.length) return 0
	let bestI = 0
	let bestJ = 0
	let best = 0
	let prev = new Array<number>(b.length + 1).fill(0)
	for (let i = 1; i <= a.length; i++) {
		const row = new Array<number>(b.length + 1).fill(0)
		for (let j = 1; j <= b.length; j++) {
			if (a[i - 1] === b[j - 1]) {
				const k = (prev[j - 1] ?? 0) + 1
				row[j] = k
				if (k > best) {
					best = k
					bestI = i - k
					bestJ = j - k
				}
			}
		}
		prev = row
	}
	if (best === 0) return 0
	return (
		best +
		matchingChars(a.slice(0, bestI), b.slice(0, bestJ)) +
		matchingChars(a.slice(bestI + best), b.slice(bestJ + best))
	)
}
