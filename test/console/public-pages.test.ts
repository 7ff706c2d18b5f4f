import { describe, it } from 'bun:test'
import { checkPage, SIZES, SLOW, useConsole } from './harness'

/**
 * The pages the walk (product.test.ts) does not pass through: asking for a reset link, and the reset
 * page an e-mailed link opens (with a token that will not be accepted: the page is what is checked,
 * before it is sent). Each at both sizes: no serious or critical axe-core violation, nothing wider
 * than the screen.
 */
const h = useConsole()

const PAGES = [
	{ name: 'forgot', path: '/#/forgot' },
	{ name: 'reset', path: '/reset-password#uid=MQ&token=not-a-real-token' },
] as const

describe('the console pages outside the walk', () => {
	for (const size of SIZES) {
		for (const p of PAGES) {
			it(
				`${p.name} at ${size.width} px: accessible and no wider than the screen`,
				async () => {
					const session = await h.open({ size })
					try {
						await session.page.goto(`${h.server.url}${p.path}`)
						await session.page.waitForSelector(`[data-page="${p.name}"]`)
						await checkPage(session.page, p.name)
						await session.finish()
					} finally {
						await session.close()
					}
				},
				SLOW,
			)
		}
	}
})
