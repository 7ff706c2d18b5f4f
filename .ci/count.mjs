// The test run's counts for .ci/run: from bun's JUnit report when it was written, else from what
// the runner printed (a runner that died, of a native abort say, writes no report): its "(pass)"
// and "(fail)" lines, plus one failure for the file that was running, which is named.
// Usage: node .ci/count.mjs <junit.xml> <runner output>; prints "<passed> <failed> <note>".
import { existsSync, readFileSync } from 'node:fs'

export function fromJunit(xml) {
	const cases = xml.match(/<testcase\b[^>]*?(\/>|>[\s\S]*?<\/testcase>)/g) ?? []
	let failed = 0
	let skipped = 0
	for (const c of cases) {
		if (/<(failure|error)\b/.test(c)) failed++
		else if (/<skipped\b/.test(c)) skipped++
	}
	return { passed: cases.length - failed - skipped, failed, note: '' }
}

export function fromOutput(text) {
	let passed = 0
	// Bun lists each failure again after the last file: the same line, counted once.
	const failed = new Set()
	let file = ''
	for (const line of text.split('\n')) {
		const header = /^(\S+\.test\.[cm]?[jt]sx?):$/.exec(line.trim())
		if (header) file = header[1]
		else if (line.startsWith('(pass) ')) passed++
		else if (line.startsWith('(fail) ')) failed.add(line)
	}
	return {
		passed,
		failed: failed.size + 1,
		note: `the test runner ended without its report${file ? ` while running ${file}` : ''}: counted from its output, and that file as one failure`,
	}
}

export function count(junitPath, outputPath) {
	if (existsSync(junitPath)) return fromJunit(readFileSync(junitPath, 'utf8'))
	return fromOutput(existsSync(outputPath) ? readFileSync(outputPath, 'utf8') : '')
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const { passed, failed, note } = count(process.argv[2], process.argv[3])
	process.stdout.write(`${passed} ${failed} ${note}\n`)
}
