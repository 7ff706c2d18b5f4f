import { t } from 'elysia'
import * as v from 'valibot'
import { MESSAGES } from '../auth/errors'
import { checkedBy } from '../http/field-schema'
import * as S from '../openapi/schemas'
import { textFault } from '../util/text'

/**
 * The bodies and answers of `/api/keys/` (docs/operator.md), each written once: the creation's body
 * is the schema the route validates and the document shows. Each field is checked by its DRF rule
 * in DRF's words (`checkedBy`), documented as its plain JSON.
 */
export const MAX_IDS = 1000
export const INVALID_CHOICE = 'Select a valid choice. That choice is not one of the available choices.'
const TOO_MANY = `Ensure this field has no more than ${MAX_IDS} elements.`

/** A field's first problem in its rule's words, or null. */
const faultOf =
	(schema: v.GenericSchema) =>
	(value: unknown): string | null => {
		const result = v.safeParse(schema, value)
		return result.success ? null : (result.issues[0]?.message ?? null)
	}

const name = v.pipe(
	v.unknown(),
	v.check((x) => x !== undefined && x !== null, MESSAGES.required),
	v.string('Not a valid string.'),
	v.trim(),
	v.nonEmpty('This field may not be blank.'),
	v.maxLength(100, 'Ensure this field has no more than 100 characters.'),
	v.check((s) => textFault(s) === null, 'Control characters are not allowed.'),
)
const expiresAt = v.nullish(
	v.pipe(
		v.string('Not a valid string.'),
		v.check((s) => s.length <= 40 && Number.isFinite(Date.parse(s)), 'Enter a valid date and time.'),
	),
)
const userbotIds = v.nullish(
	v.pipe(
		v.array(
			v.pipe(v.number('A valid integer is required.'), v.safeInteger('A valid integer is required.')),
			'Expected a list of items.',
		),
		v.maxLength(MAX_IDS, TOO_MANY),
	),
)
const names = v.nullish(
	v.pipe(
		v.array(
			v.pipe(v.string('Not a valid string.'), v.maxLength(100, INVALID_CHOICE)),
			'Expected a list of items.',
		),
		v.maxLength(MAX_IDS, TOO_MANY),
	),
)
const flag = v.optional(v.boolean('Must be a valid boolean.'))

/**
 * An id inside the body's list: documented as `S.Id()`, checked as one (Elysia's body normaliser
 * compiles a union's members, and a bare `t.Unsafe` has no check it could compile).
 */
const Id = checkedBy(S.Id(), (x) => (Number.isSafeInteger(x) ? null : 'A valid integer is required.'))

const Names = () => t.Union([t.Array(t.String()), t.Null()])

/** `POST /api/keys/`: the scopes are narrowed to what is named; a name is trimmed when stored. */
export const NewApiKey = t.Object({
	name: checkedBy(t.String({ maxLength: 100 }), faultOf(name)),
	expires_at: t.Optional(
		checkedBy(t.Union([t.String({ format: 'date-time' }), t.Null()]), faultOf(expiresAt)),
	),
	userbot_ids: t.Optional(checkedBy(t.Union([t.Array(Id), t.Null()]), faultOf(userbotIds))),
	groups: t.Optional(checkedBy(Names(), faultOf(names))),
	commands: t.Optional(checkedBy(Names(), faultOf(names))),
	read_only: t.Optional(checkedBy(t.Boolean(), faultOf(flag))),
	webhooks: t.Optional(checkedBy(t.Boolean(), faultOf(flag))),
	bot_api: t.Optional(
		checkedBy(
			t.Boolean({
				description:
					'Also a Bot API token (docs/bot-api.md): `userbot_ids` names exactly one logged-in userbot, and the answer carries `bot_token`.',
			}),
			faultOf(flag),
		),
	),
})

const Scopes = t.Object({
	userbot_ids: t.Union([t.Array(S.Id()), t.Null()]),
	groups: Names(),
	commands: Names(),
	read_only: t.Boolean(),
	webhooks: t.Boolean(),
})
export const ApiKey = t.Object({
	id: S.Id(),
	name: t.String(),
	prefix: t.String({ description: 'The first characters of the key, to tell keys apart.' }),
	scopes: Scopes,
	expires_at: t.Union([t.String({ format: 'date-time' }), t.Null()]),
	last_used_at: t.Union([t.String({ format: 'date-time' }), t.Null()]),
	created_at: t.String({ format: 'date-time' }),
	bot_api: t.Boolean({ description: 'Whether the key is also a Bot API token.' }),
})
