import type { formattedText$Input } from 'tdlib-types'
import * as v from 'valibot'
import { constructorsOf, isTdClass } from '../../runtime/telegram/schema'
import { documented, isObject, type JsonObject, type JsonSchema } from './fields'
import {
	type CheckOptions,
	checkTdList,
	checkTdObject,
	LONE_SURROGATE,
	TdObjectError,
	type TdSlot,
	tdSlot,
} from './td-validator'

/**
 * Command fields that hold a client's TDLib objects, built on the validator (td-validator.ts): the
 * first failure's message is the `<command>_error` string.
 */

export interface TdFieldOptions extends CheckOptions {
	/** One wire string for every way the value can be wrong (the spec's `block_list must be ...`). */
	message?: string
}

/** The constructors a slot takes at its top level, by name: the catalog's enum for the field. */
export function slotTypes(slot: TdSlot): string[] {
	const own = constructorsOf(slot.type)
	return (own.length > 0 ? own : [slot.type]).filter((c) => slot.allowed.has(c)).sort()
}

/** What the catalog says of a TDLib object field: an object whose `@type` (or `_`) is one of the slot's. */
export function tdObjectSchema(slot: TdSlot, opts: CheckOptions = {}): JsonSchema {
	const types = slotTypes(slot)
	const exact = !isTdClass(slot.type)
	const object: JsonSchema = {
		type: 'object',
		description: `a TDLib ${slot.type}${exact ? '' : ` (@type or _ names its constructor)`}, checked against TDLib 1.8.65's schema`,
		properties: { '@type': { type: 'string', enum: types }, _: { type: 'string', enum: types } },
		...(exact ? {} : { anyOf: [{ required: ['@type'] }, { required: ['_'] }] }),
	}
	return opts.strings ? { anyOf: [{ type: 'string', enum: types }, object] } : object
}

/** One message for every failure, or the validator's, which name the field's path. */
const fieldErrors = (field: string, opts: TdFieldOptions) =>
	opts.message === undefined ? { errorsNaming: field } : { errors: [opts.message] }

/**
 * A command field holding a client's TDLib object (optional; wrap it in the group's own required
 * check when the spec requires it). The first failure's message is the `<command>_error` string.
 */
export function tdObjectField<T = JsonObject>(field: string, slot: TdSlot, opts: TdFieldOptions = {}) {
	return v.optional(
		v.pipe(
			documented(v.unknown(), tdObjectSchema(slot, opts), fieldErrors(field, opts)),
			v.rawTransform(({ dataset, addIssue, NEVER }) => {
				try {
					return checkTdObject<T>(dataset.value, slot, field, opts)
				} catch (err) {
					if (!(err instanceof TdObjectError)) throw err
					addIssue({ message: opts.message ?? err.message })
					return NEVER
				}
			}),
		),
	)
}

/** As `tdObjectField` for a list of objects. */
export function tdListField<T = JsonObject>(field: string, slot: TdSlot, opts: TdFieldOptions = {}) {
	return v.optional(
		v.pipe(
			documented(v.unknown(), { type: 'array', items: tdObjectSchema(slot, opts) }, fieldErrors(field, opts)),
			v.rawTransform(({ dataset, addIssue, NEVER }) => {
				try {
					return checkTdList<T>(dataset.value, slot, field, opts)
				} catch (err) {
					if (!(err instanceof TdObjectError)) throw err
					addIssue({ message: opts.message ?? err.message })
					return NEVER
				}
			}),
		),
	)
}

export type FormattedText = formattedText$Input

const FORMATTED_TEXT = tdSlot('formattedText')
export const TEXT_ENTITY = tdSlot('textEntity')

/** Unicode text TDLib can take: no lone surrogate (UTF-8 cannot carry one). */
export const isUnicodeText = (s: string) => !LONE_SURROGATE.test(s)

/**
 * A text field: a string, or a `formattedText` object (checked, entities and all). Anything else
 * (a number, a list, a structure 5,000 levels deep) is `<field> must be a string or a formattedText
 * object`.
 */
export function textField(field: string) {
	return v.optional(
		v.pipe(
			documented(
				v.unknown(),
				{
					anyOf: [{ type: 'string' }, tdObjectSchema(FORMATTED_TEXT)],
					description: 'text: a string, or a TDLib formattedText with its entities',
				},
				{ errorsNaming: field },
			),
			v.rawTransform(({ dataset, addIssue, NEVER }) => {
				try {
					const value = dataset.value
					if (value === null) return undefined
					if (isObject(value)) return checkTdObject<FormattedText>(value, FORMATTED_TEXT, field)
					if (typeof value !== 'string')
						throw new TdObjectError(`${field} must be a string or a formattedText object`)
					if (!isUnicodeText(value)) throw new TdObjectError(`${field} must be valid Unicode text`)
					return value
				} catch (err) {
					if (!(err instanceof TdObjectError)) throw err
					addIssue({ message: err.message })
					return NEVER
				}
			}),
		),
	)
}

/**
 * `FT(s, e)` (docs/tdlib-mapping.md#conventions): a string with optional entities, or a `formattedText` object.
 * Anything else (a number, a list, a nested structure) is refused: text is text.
 */
export function formattedText(text: unknown, entities?: unknown, field = 'text'): FormattedText {
	if (isObject(text)) {
		const checked = checkTdObject<FormattedText>(text, FORMATTED_TEXT, field)
		return { _: 'formattedText', text: checked.text ?? '', entities: checked.entities ?? [] }
	}
	if (text !== undefined && text !== null && typeof text !== 'string') {
		throw new TdObjectError(`${field} must be a string or a formattedText object`)
	}
	const value = text ?? ''
	if (LONE_SURROGATE.test(value)) throw new TdObjectError(`${field} must be valid Unicode text`)
	return {
		_: 'formattedText',
		text: value,
		entities:
			entities === undefined || entities === null
				? []
				: checkTdList<FormattedText['entities'] extends ReadonlyArray<infer E> | undefined ? E : never>(
						entities,
						TEXT_ENTITY,
						'entities',
					),
	}
}
