import type * as Td from 'tdlib-types'
import { parseHtml } from './html'
import { parseMarkdown } from './markdown'
import { parseMarkdownV2 } from './markdown-v2'
import { Buffer, DATES_NOT_EMULATED, type Entity, isFirstCodeUnit, ParseError, refuse } from './text'

/**
 * TDLib 1.8.65's `parseTextEntities` (td/telegram/SynchronousRequests.cpp), its parsers ported from
 * td/telegram/MessageEntity.cpp (`parse_html`, `parse_markdown`, `parse_markdown_v2`) and the link
 * checks of td/telegram/LinkManager.cpp and tdutils' `parse_url`. They work as TDLib's do: on the
 * text's UTF-8 bytes, in place (the text is rewritten into the same buffer as it is read, which
 * shows in a few of TDLib's answers, e.g. Markdown's `[text]` without a URL), with byte offsets in
 * the errors and UTF-16 offsets in the entities. test/telegram/emulator-parity.test.ts holds it to
 * real TDLib. Not ported: `tg-time` / `tg://time` dates (the emulator refuses them in its own words).
 */

function entityType(e: Entity): Td.TextEntityType {
	switch (e.type) {
		case 'Bold':
			return { _: 'textEntityTypeBold' }
		case 'Italic':
			return { _: 'textEntityTypeItalic' }
		case 'Underline':
			return { _: 'textEntityTypeUnderline' }
		case 'Strikethrough':
			return { _: 'textEntityTypeStrikethrough' }
		case 'Spoiler':
			return { _: 'textEntityTypeSpoiler' }
		case 'Code':
			return { _: 'textEntityTypeCode' }
		case 'Pre':
			return { _: 'textEntityTypePre' }
		case 'PreCode':
			return { _: 'textEntityTypePreCode', language: e.argument ?? '' }
		case 'TextUrl':
			return { _: 'textEntityTypeTextUrl', url: e.argument ?? '' }
		case 'MentionName':
			return { _: 'textEntityTypeMentionName', user_id: e.userId ?? 0 }
		case 'CustomEmoji':
			return { _: 'textEntityTypeCustomEmoji', custom_emoji_id: e.customEmojiId ?? '0' }
		case 'BlockQuote':
			return { _: 'textEntityTypeBlockQuote' }
		case 'ExpandableBlockQuote':
			return { _: 'textEntityTypeExpandableBlockQuote' }
	}
}

/** The outcome of `parseTextEntities`: TDLib's formattedText, or its error's message (code 400). */
export function parseTextEntities(
	text: string,
	mode: Td.TextParseMode$Input | undefined,
): { ok: true; text: Td.formattedText } | { ok: false; message: string } {
	if (!mode) return { ok: false, message: 'Parse mode must be non-empty' }
	const t = new Buffer(text)
	try {
		let codePoints = 0
		for (let i = 0; i < t.size; i++) if (isFirstCodeUnit(t.at(i))) codePoints++
		if (codePoints > 65536) refuse('Text is too long')
		let parsed: { size: number; entities: Entity[] }
		if (mode._ === 'textParseModeHTML') parsed = parseHtml(t)
		else {
			const version = mode.version ?? 0
			if (version === 0 || version === 1) parsed = parseMarkdown(t)
			else if (version === 2) parsed = parseMarkdownV2(t)
			else return refuse('Wrong Markdown version specified')
		}
		return {
			ok: true,
			text: {
				_: 'formattedText',
				text: t.text(parsed.size),
				entities: parsed.entities.map((e) => ({
					_: 'textEntity',
					offset: e.offset,
					length: e.length,
					type: entityType(e),
				})),
			},
		}
	} catch (err) {
		if (err instanceof ParseError) {
			const dates = err.message === DATES_NOT_EMULATED
			return { ok: false, message: dates ? err.message : `Can't parse entities: ${err.message}` }
		}
		throw err
	}
}
