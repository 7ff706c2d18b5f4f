import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

/**
 * The console's accessibility and layout checks, shared by every console test: axe-core (the
 * well-kept engine behind Lighthouse and Deque's tools) run inside the page, and the 390 px rule
 * (nothing wider than the viewport). The engine is evaluated from the installed package, so the page
 * asks nothing of any host but the server.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

export type Violation = { id: string; impact: string; help: string; nodes: string[] }

/** The serious and critical violations axe-core finds on the page as it is now (WCAG 2.x A and AA). */
export async function seriousViolations(page: Page): Promise<Violation[]> {
	// Evaluated through the debugging protocol, not a <script>: the console's CSP stays as it is served.
	if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE)
	return page.evaluate(async () => {
		type AxeResult = {
			violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[]
		}
		const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<AxeResult> } }).axe
		const result = await axe.run(document, {
			runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
			resultTypes: ['violations'],
		})
		return result.violations
			.filter((v) => v.impact === 'serious' || v.impact === 'critical')
			.map((v) => ({
				id: v.id,
				impact: v.impact ?? '',
				help: v.help,
				nodes: v.nodes.slice(0, 5).map((n) => n.target.map(String).join(' ')),
			}))
	})
}

/** How many pixels the page is wider than its viewport (0 when nothing scrolls sideways). */
export async function horizontalOverflow(page: Page): Promise<number> {
	return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth))
}
