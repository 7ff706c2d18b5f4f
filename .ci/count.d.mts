/** The test run's counts (`.ci/count.mjs`): `note` says how they were counted when not from the report. */
export interface Counts {
	passed: number
	failed: number
	note: string
}
export function fromJunit(xml: string): Counts
export function fromOutput(text: string): Counts
export function count(junitPath: string, outputPath: string): Counts
