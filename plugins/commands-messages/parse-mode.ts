import type { TextParseMode$Input } from 'tdlib-types'
import {
	type CommandContext,
	CommandError,
	documented,
	type FormattedText,
	formattedText,
	optionalString,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { MessagesErrors as E } from './errors'

/**
 * `parse_mode`: the text's markup, read by TDLib's own parser (`parseTextEntities`, a static request
 * of TDLib's): `HTML`, `MarkdownV2` or `Markdown` (the legacy version 1), in any case, as the Bot API
 * takes them. TDLib's refusal ("Can't parse entities: ...") is the command's error, word for word.
 */
const MODES: Readonly<Record<string, TextParseMode$Input>> = {
	html: { _: 'textParseModeHTML' },
	markdownv2: { _: 'textParseModeMarkdown', version: 2 },
	markdown: { _: 'textParseModeMarkdown', version: 1 },
}

export const parseModeField = documented(
	v.pipe(
		optionalString('parse_mode'),
		v.check((s) => s === undefined || Object.hasOwn(MODES, s.toLowerCase()), E.PARSE_MODE),
	),
	{
		enum: ['HTML', 'MarkdownV2', 'Markdown'],
		description:
			"the markup of the command's text (and captions), parsed by TDLib's parseTextEntities; not with entities",
	},
)

/**
 * The formatted text of a text field: with `mode`, the string as TDLib's parser reads it (then it
 * takes no entities of its own); without, `formattedText(text, entities)` as every command makes it.
 */
export async function parsedText(
	ctx: Pick<CommandContext, 'invoke'>,
	text: unknown,
	entities: unknown,
	mode: string | undefined,
	field = 'text',
): Promise<FormattedText> {
	if (mode === undefined || text === undefined || text === null) return formattedText(text, entities, field)
	if (typeof text !== 'string') throw new CommandError(E.PARSE_MODE_TEXT)
	if (entities !== undefined && entities !== null) throw new CommandError(E.PARSE_MODE_ENTITIES)
	const parsed = await ctx.invoke({
		_: 'parseTextEntities',
		text,
		parse_mode: MODES[mode.toLowerCase()] as TextParseMode$Input,
	})
	return { _: 'formattedText', text: parsed.text, entities: parsed.entities }
}
