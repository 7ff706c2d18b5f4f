/** One line of the reliability report. */
export interface Row {
	scenario: string
	/** Frames, requests, commands or registrations tried. */
	tried: number
	/** Replies or answers received (for the tried ones). */
	replies: number
	/** The server or its supervisor died when nobody killed it (restarts not asked for). */
	crashes: number
	/** Tried and never answered (a close that says so is not a loss). */
	lost: number
	/** Answers beyond one per try. */
	duplicates: number
	/** Peak resident memory of the server process during the scenario. */
	maxRssMb: number
	/** Send-to-answer latency, 99th percentile (NaN where not measured). */
	p99Ms: number
	notes: string
}

const cell = (v: number | string) =>
	typeof v === 'number' ? (Number.isNaN(v) ? '-' : Number.isInteger(v) ? String(v) : v.toFixed(1)) : v

export function table(rows: readonly Row[]): string {
	const head = [
		'scenario',
		'tried',
		'replies',
		'crashes',
		'lost',
		'duplicates',
		'max RSS MB',
		'p99 ms',
		'notes',
	]
	const lines = rows.map((r) => [
		r.scenario,
		r.tried,
		r.replies,
		r.crashes,
		r.lost,
		r.duplicates,
		r.maxRssMb,
		r.p99Ms,
		r.notes,
	])
	const out = [
		`| ${head.join(' | ')} |`,
		`|${head.map((_h, i) => (i === 0 || i === head.length - 1 ? '---' : '---:')).join('|')}|`,
	]
	for (const l of lines) out.push(`| ${l.map(cell).join(' | ')} |`)
	return out.join('\n')
}
