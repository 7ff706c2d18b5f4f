import type { linkPreviewOptions$Input } from 'tdlib-types'
import { TEXT_ENTITY, tdListField, tdObjectField, tdSlot, textField } from 'userbot-gateway/plugin'

/**
 * A message's text as `send_message` and `edit_message` take it: the text, its entities (or
 * `parse_mode`, ./parse-mode.ts, through TDLib's parser) and its link preview, each checked against
 * TDLib 1.8.65 for its field.
 */
export const textInput = textField('text')
export const entitiesInput = tdListField('entities', TEXT_ENTITY)
export const linkPreviewInput = tdObjectField<linkPreviewOptions$Input>(
	'link_preview_options',
	tdSlot('linkPreviewOptions'),
)
