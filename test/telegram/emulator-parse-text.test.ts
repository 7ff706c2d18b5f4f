import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEmulatorBackend } from '../../src/emulator'
import type { BackendClient } from '../../src/runtime/telegram/backend'
import { TdError, type TdRequest } from '../../src/runtime/telegram/types'
import { startTdlibChild, type TdlibChild } from './tdlib-child'

/**
 * `parseTextEntities` is a static request of TDLib's: real TDLib 1.8.65 answers it offline, in its
 * child process (tdlib-child.ts). The emulator's port of TDLib's parsers (messages/parse-text.ts)
 * must give the same answer, text, entities and UTF-16 offsets or error word for word, to every input.
 */
type Mode = { _: 'textParseModeHTML' } | { _: 'textParseModeMarkdown'; version: number }
const HTML: Mode = { _: 'textParseModeHTML' }
const MD1: Mode = { _: 'textParseModeMarkdown', version: 1 }
const MD2: Mode = { _: 'textParseModeMarkdown', version: 2 }

const HTML_CASES = [
	'<b>bold</b> <strong>strong</strong> <i>i</i> <em>em</em> <u>u</u> <ins>ins</ins>',
	'<s>s</s> <strike>strike</strike> <del>del</del> <tg-spoiler>sp</tg-spoiler> <span class="tg-spoiler">sp</span>',
	'<a href="https://example.com/a?b=c">link</a> <a href="tg://user?id=123456">mention</a>',
	'<a href="example.com">no scheme</a> <a href="ftp://x.org">ftp</a> <a href="nodot">nodot</a> <a>https://t.me/x</a>',
	'<code>x = 1</code> <pre>block</pre> <pre><code class="language-python">print(1)</code></pre>',
	'<pre><code>no lang</code></pre> <code class="language-js">inline</code>',
	'<blockquote>quote</blockquote> <blockquote expandable>more</blockquote>',
	'<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji>',
	'<tg-emoji emoji-id="0">x</tg-emoji>',
	'<tg-emoji emoji-id="abc">x</tg-emoji>',
	'😀 <b>a😀b</b> 𝔘 <i>é</i> 中文 <u>x</u>',
	'&lt;&gt;&amp;&quot; &#65; &#x41; &#x1F600; &nbsp; &unknown; & &#0; &#xD800;',
	'<b>x</i>',
	'<x>unsupported</x>',
	'<b',
	'<b>never closed',
	'</b>',
	'<span>no class</span>',
	'<span class="other">x</span>',
	'<a href=unquoted>x</a>',
	'<a href=https://x.org>x</a>',
	'<b =x>y</b>',
	'<a href="x.org" title=\'t\'>x</a>',
	'<B>upper</B> <A HREF="https://x.org">x</A>',
	'<b></b>empty <i> </i>',
	'<b>a<i>b<u>c</u></i></b>',
	'text with a < less and > more',
	'</ >',
	'<b>x</ b>',
	'<b>x</>',
	'<a href="https://x.org/&amp;q">x</a>',
	'<a href="tg://resolve?domain=x">tg</a> <a href="TG://USER?ID=5">up</a>',
	'<a href="https://user:pass@x.org:8080/p">x</a> <a href="http://x.org:0">x</a> <a href="http://[::1]/">v6</a>',
	'<blockquote>a\nb</blockquote>\n<pre>\ncode\n</pre>',
	'',
	'plain',
	'<b>\u0000</b>',
	'<tg-time unix="1700000000">x</tg-time>'.replace('tg-time', 'b').replace('tg-time', 'b'),
]

const MD2_CASES = [
	'*bold* _italic_ __underline__ ~strike~ ||spoiler|| `code`',
	'```\npre block\n```',
	'```python\nprint(1)\n```',
	'[link](https://example.com) [mention](tg://user?id=42) [self]',
	'![👍](tg://emoji?id=5368324170671202286)',
	'![x](tg://emoji?id=0)',
	'![x](https://example.com)',
	'![x]',
	'*unclosed',
	'_a *b* c_',
	'*a _b __c__ b_ a*',
	'escaped \\* \\_ \\. \\! \\\\ \\a',
	'reserved . here',
	'a - b',
	'1 + 1 = 2',
	'(paren)',
	'{brace}',
	'#hash',
	'|single',
	'!bang',
	'>quote\n>second line\nafter',
	'>quote at end',
	'**>expandable\n>more||',
	'text > not a quote',
	'😀 *a😀b* 𝔘 _é_',
	'`code with * inside`',
	'```\nno end',
	'[unclosed link',
	'[text](https://x.org',
	'[a](https://x.org/\\)path)',
	'[](https://x.org)',
	'**',
	'__',
	'~~',
	'*a\nb*',
	'',
	'plain text',
	'_a_b_',
	'___triple___',
]

const MD1_CASES = [
	'*bold* _italic_ `code` [link](https://example.com)',
	'```\npre\n```',
	'```js\nx\n```',
	'[abc]',
	'x [abc] y',
	'[example.com]',
	'\\* \\_ \\` \\[ escaped',
	'*unclosed',
	'[mention](tg://user?id=7)',
	'😀 *a😀b*',
	'**',
	'',
	'*a _b_ a*',
	'```\nno end',
	'[text](https://x.org',
]

/** A fixed pseudo-random corpus from pieces of markup: many combinations neither side was tuned to. */
function generated(pieces: string[], count: number, seed: number): string[] {
	let state = seed
	const next = () => {
		state = (state * 1103515245 + 12345) % 2 ** 31
		return state
	}
	const out: string[] = []
	for (let n = 0; n < count; n++) {
		let s = ''
		const len = 1 + (next() % 8)
		for (let k = 0; k < len; k++) s += pieces[next() % pieces.length]
		out.push(s)
	}
	return out
}

/** Well-formed markup, nested to a few levels, from the same pseudo-random sequence: mostly parsed. */
function wellFormed(mode: 'html' | 'md2' | 'md1', count: number, seed: number): string[] {
	let state = seed
	const next = (n: number) => {
		state = (state * 1103515245 + 12345) % 2 ** 31
		return state % n
	}
	const words = ['x', 'héllo', '😀', 'a b', '中', '𝔘', '1', ' ']
	const mdWords = ['x', 'héllo', '😀', 'a b', '中', '𝔘', '1', ' ', '\\.', '\\!']
	const html: Array<[string, string]> = [
		['<b>', '</b>'],
		['<i>', '</i>'],
		['<u>', '</u>'],
		['<s>', '</s>'],
		['<tg-spoiler>', '</tg-spoiler>'],
		['<a href="https://x.org/p">', '</a>'],
		['<code>', '</code>'],
		['<pre>', '</pre>'],
		['<pre><code class="language-go">', '</code></pre>'],
		['<blockquote>', '</blockquote>'],
		['<a href="tg://user?id=99">', '</a>'],
		['<tg-emoji emoji-id="5">', '</tg-emoji>'],
	]
	const md2: Array<[string, string]> = [
		['*', '*'],
		['_', '_'],
		['__', '__'],
		['~', '~'],
		['||', '||'],
		['[', '](https://x.org)'],
		['`', '`'],
		['```\n', '```'],
		['```rust\n', '```'],
		['[', '](tg://user?id=5)'],
		['![', '](tg://emoji?id=77)'],
	]
	const md1: Array<[string, string]> = [
		['*', '*'],
		['_', '_'],
		['`', '`'],
		['[', '](https://x.org)'],
		['```\n', '```'],
		['```sql\n', '```'],
	]
	const build = (depth: number): string => {
		let s = ''
		const parts = 1 + next(3)
		for (let k = 0; k < parts; k++) {
			const ws = mode === 'html' ? words : mdWords
			if (depth === 0 || next(3) === 0 || mode === 'md1') {
				s += ws[next(ws.length)]
				if (mode === 'md1' && next(2) === 0) {
					const [open, close] = md1[next(md1.length)]!
					s += open + ws[next(6)] + close
				}
				continue
			}
			const pairs = mode === 'html' ? html : md2
			const [open, close] = pairs[next(pairs.length)]!
			// Nothing nests inside code and pre.
			const inner =
				open.includes('`') || open.includes('code') || open.includes('pre') ? ws[next(6)] : build(depth - 1)
			s += open + inner + close
		}
		return s
	}
	return Array.from({ length: count }, () => build(3))
}

const HTML_PIECES = [
	'<b>',
	'</b>',
	'<i>',
	'</i>',
	'<a href="https://x.org">',
	'</a>',
	'<code>',
	'</code>',
	'<pre>',
	'</pre>',
	'<code class="language-c">',
	'x',
	'😀',
	' ',
	'&amp;',
	'&#128512;',
	'<',
	'>',
	'\n',
	'<blockquote>',
	'</blockquote>',
	'<tg-spoiler>',
	'</tg-spoiler>',
	'</>',
	'é',
]
const MD2_PIECES = [
	'*',
	'_',
	'__',
	'~',
	'||',
	'`',
	'```',
	'[',
	']',
	'(https://x.org)',
	'(',
	')',
	'x',
	'😀',
	' ',
	'\\',
	'\\*',
	'\n',
	'>',
	'!',
	'.',
	'é',
	'\r',
	'tg://user?id=1',
]
const MD1_PIECES = [
	'*',
	'_',
	'`',
	'```',
	'[',
	']',
	'(https://x.org)',
	'(',
	')',
	'x',
	'😀',
	' ',
	'\\',
	'\\*',
	'\n',
	'a.b',
	'é',
]

type Answer = { text: unknown } | { error: string }

const corpus: Array<{ text: string; mode: Mode }> = [
	...HTML_CASES.map((text) => ({ text, mode: HTML })),
	...MD2_CASES.map((text) => ({ text, mode: MD2 })),
	...MD1_CASES.map((text) => ({ text, mode: MD1 })),
	...generated(HTML_PIECES, 600, 7).map((text) => ({ text, mode: HTML })),
	...generated(MD2_PIECES, 600, 11).map((text) => ({ text, mode: MD2 })),
	...generated(MD1_PIECES, 400, 13).map((text) => ({ text, mode: MD1 })),
	...wellFormed('html', 500, 17).map((text) => ({ text, mode: HTML })),
	...wellFormed('md2', 500, 19).map((text) => ({ text, mode: MD2 })),
	...wellFormed('md1', 300, 23).map((text) => ({ text, mode: MD1 })),
	{ text: 'x', mode: { _: 'textParseModeMarkdown', version: 3 } },
	{ text: 'x', mode: { _: 'textParseModeMarkdown', version: 0 } },
]

describe('parseTextEntities: the emulator answers as TDLib 1.8.65', () => {
	let real: TdlibChild
	let dir: string
	let emulated: BackendClient
	beforeAll(async () => {
		real = await startTdlibChild()
		dir = mkdtempSync(join(tmpdir(), 'ubg-parse-text-'))
		emulated = createEmulatorBackend().createClient(1, {
			databaseDirectory: dir,
			filesDirectory: dir,
			encryptionKey: '',
		})
	})
	afterAll(async () => {
		await real.stop()
		await emulated.close()
		rmSync(dir, { recursive: true, force: true })
	})

	const theirs = async (text: string, mode: Mode): Promise<Answer> => {
		const r = (await real.execute({ _: 'parseTextEntities', text, parse_mode: mode })) as {
			_: string
			message?: string
		}
		return r._ === 'error' ? { error: String(r.message) } : { text: r }
	}
	const ours = (text: string, mode: Mode): Promise<Answer> =>
		emulated.invoke({ _: 'parseTextEntities', text, parse_mode: mode } as TdRequest).then(
			(r) => ({ text: r }),
			(err: unknown) => {
				if (err instanceof TdError) return { error: err.message }
				throw err
			},
		)

	it('gives the same text, entities and errors over a corpus of HTML, MarkdownV2 and Markdown', async () => {
		expect(corpus.length).toBeGreaterThan(2900)
		const answers = await Promise.all(corpus.map(({ text, mode }) => theirs(text, mode)))
		const differences: string[] = []
		let errors = 0
		let entities = 0
		for (const [i, { text, mode }] of corpus.entries()) {
			const real = answers[i] as Answer
			if ('error' in real) errors++
			else entities += (real.text as { entities: unknown[] }).entities.length
			const mine = await ours(text, mode)
			if (JSON.stringify(mine) !== JSON.stringify(real))
				differences.push(
					`${JSON.stringify(text)} (${JSON.stringify(mode)}): TDLib ${JSON.stringify(real)}, ours ${JSON.stringify(mine)}`,
				)
		}
		expect(differences.slice(0, 10)).toEqual([])
		// Both kinds in numbers: a parser that refuses (or accepts) everything cannot pass.
		expect(errors).toBeGreaterThan(200)
		expect(corpus.length - errors).toBeGreaterThan(1000)
		expect(entities).toBeGreaterThan(2000)
	}, 120_000)

	it('answers the cases a Bot API user meets, as measured from TDLib', async () => {
		const cases: Array<[string, Mode, Answer]> = [
			[
				'<b>hi</b> 😀<i>x</i>',
				HTML,
				{
					text: {
						_: 'formattedText',
						text: 'hi 😀x',
						entities: [
							{ _: 'textEntity', offset: 0, length: 2, type: { _: 'textEntityTypeBold' } },
							// The emoji is two UTF-16 units: the italic starts at 5.
							{ _: 'textEntity', offset: 5, length: 1, type: { _: 'textEntityTypeItalic' } },
						],
					},
				},
			],
			['<x>', HTML, { error: `Can't parse entities: Unsupported start tag "x" at byte offset 0` }],
			['*a', MD2, { error: "Can't parse entities: Can't find end of Bold entity at byte offset 0" }],
			[
				'a.b',
				MD2,
				{
					error:
						"Can't parse entities: Character '.' is reserved and must be escaped with the preceding '\\'",
				},
			],
		]
		for (const [text, mode, answer] of cases) {
			expect(await theirs(text, mode)).toEqual(answer)
			expect(await ours(text, mode)).toEqual(answer)
		}
	})
})
