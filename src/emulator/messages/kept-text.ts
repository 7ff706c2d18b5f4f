import type * as Td from 'tdlib-types'
import { formattedText } from '../objects'

/**
 * A client's formatted text as the cloud keeps it: its entities sorted by offset (then the longer
 * first) and cut to the text, those left empty dropped, as TDLib's fix_formatted_text leaves them.
 */
export function keptText(input: Td.formattedText$Input | undefined): Td.formattedText {
	const text = input?.text ?? ''
	const entities: Td.textEntity[] = []
	for (const e of input?.entities ?? []) {
		const offset = Math.max(0, e.offset ?? 0)
		const length = Math.min(e.length ?? 0, text.length - offset)
		if (length > 0 && e.type)
			entities.push({ _: 'textEntity', offset, length, type: e.type as Td.TextEntityType })
	}
	entities.sort((a, b) => a.offset - b.offset || b.length - a.length)
	return entities.length ? { _: 'formattedText', text, entities } : formattedText(text)
}

export const caption = (c: Td.formattedText$Input | undefined): Td.formattedText => keptText(c)
