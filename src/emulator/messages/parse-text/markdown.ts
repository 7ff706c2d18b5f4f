import { linkEntity } from './links'
import {
	type Buffer,
	ch,
	type Entity,
	fromBinary,
	isFirstCodeUnit,
	isSpace,
	refuse,
	skipOneNewLine,
	utf16Units,
} from './text'

/** `parse_markdown` (version 0 and 1) of td/telegram/MessageEntity.cpp. */

export function parseMarkdown(t: Buffer): { size: number; entities: Entity[] } {
	let resultSize = 0
	const entities: Entity[] = []
	const size = t.size
	let utf16 = 0
	for (let i = 0; i < size; i++) {
		const c = t.at(i)
		const next = t.at(i + 1)
		if (c === ch('\\') && (next === ch('_') || next === ch('*') || next === ch('`') || next === ch('['))) {
			i++
			t.set(resultSize++, t.at(i))
			utf16++
			continue
		}
		if (c !== ch('_') && c !== ch('*') && c !== ch('`') && c !== ch('[')) {
			if (isFirstCodeUnit(c)) utf16 += utf16Units(c)
			t.set(resultSize++, c)
			continue
		}
		const beginPos = i
		const endCharacter = c === ch('[') ? ch(']') : c
		let isPre = false
		i++
		let language = ''
		if (c === ch('`') && t.at(i) === ch('`') && t.at(i + 1) === ch('`')) {
			i += 2
			isPre = true
			let languageEnd = i
			while (!isSpace(t.at(languageEnd)) && t.at(languageEnd) !== ch('`')) languageEnd++
			if (i !== languageEnd && languageEnd < size && t.at(languageEnd) !== ch('`')) {
				language = t.binary(i, languageEnd)
				i = languageEnd
			}
			i = skipOneNewLine(t, i)
		}
		const entityOffset = utf16
		while (
			i < size &&
			(t.at(i) !== endCharacter || (isPre && !(t.at(i + 1) === ch('`') && t.at(i + 2) === ch('`'))))
		) {
			const cur = t.at(i)
			if (isFirstCodeUnit(cur)) utf16 += utf16Units(cur)
			t.set(resultSize++, t.at(i++))
		}
		if (i === size) refuse(`Can't find end of the entity starting at byte offset ${beginPos}`)
		if (entityOffset !== utf16) {
			const length = utf16 - entityOffset
			if (c === ch('_')) entities.push({ type: 'Italic', offset: entityOffset, length })
			else if (c === ch('*')) entities.push({ type: 'Bold', offset: entityOffset, length })
			else if (c === ch('[')) {
				let url = ''
				if (t.at(i + 1) !== ch('(')) {
					url = t.binary(beginPos + 1, i)
				} else {
					i += 2
					while (i < size && t.at(i) !== ch(')')) url += String.fromCharCode(t.at(i++))
				}
				const entity = linkEntity(url, entityOffset, length)
				if (entity) entities.push(entity)
			} else if (isPre) {
				entities.push(
					language
						? { type: 'PreCode', offset: entityOffset, length, argument: fromBinary(language) }
						: { type: 'Pre', offset: entityOffset, length },
				)
			} else {
				entities.push({ type: 'Code', offset: entityOffset, length })
			}
		}
		if (isPre) i += 2
	}
	return { size: resultSize, entities }
}
