import * as v from 'valibot'
import { textFault } from '../../common/util/text'
import { MESSAGES } from '../auth/errors'
import { documentedAs, requiredField } from '../http/body-schema'
import { FIELD_MESSAGES } from '../http/field-messages'
import * as S from '../openapi/schemas'

/**
 * The bodies and answers of `/api/keys/` (docs/operator.md), each written once: the creation's body
 * is the schema the route validates and the document shows. Each field is checked by its DRF rule
 * in DRF's words (valibot), documented as its plain JSON.
 */
export const MAX_IDS = 1000
const MAX_NAME = 100
export const INVALID_CHOICE = FIELD_MESSAGES.invalidChoice
const TOO_MANY = `Ensure this field has no more than ${MAX_IDS} elements.`

const name = v.pipe(
	v.unknown(),
	v.check((x) => x !== undefined && x !== null, MESSAGES.required),
	v.string('Not a valid string.'),
	v.trim(),
	v.nonEmpty('This field may not be blank.'),
	v.maxLength(MAX_NAME, FIELD_MESSAGES.maxLength(MAX_NAME)),
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

const orNull = (json: object) => ({ anyOf: [json, { type: 'null' }] })
const listOf = (items: object) => orNull({ type: 'array', items })

/**
 * `POST /api/keys/`: the scopes are narrowed to what is named; a name is trimmed when stored. Each
 * field is its rule above, documented as the JSON it always had (the rules' checks and transforms
 * say nothing the converter can read).
 */
export const NewApiKey = v.object(
	{
		name: documentedAs(name, { maxLength: MAX_NAME, type: 'string' }),
		expires_at: documentedAs(expiresAt, orNull({ format: 'date-time', type: 'string' })),
		userbot_ids: documentedAs(userbotIds, listOf({ type: 'integer', format: 'int64' })),
		groups: documentedAs(names, listOf({ type: 'string' })),
		commands: documentedAs(names, listOf({ type: 'string' })),
		read_only: documentedAs(flag, { type: 'boolean' }),
		webhooks: documentedAs(flag, { type: 'boolean' }),
		td_invoke: documentedAs(flag, {
			type: 'boolean',
			description:
				'May send `td_invoke`: any TDLib method the operator allows (docs/operator.md#any-tdlib-method).',
		}),
		bot_api: documentedAs(flag, {
			type: 'boolean',
			description:
				'Also a Bot API token (docs/bot-api.md): `userbot_ids` names exactly one logged-in userbot, and the answer carries `bot_token`.',
		}),
	},
	requiredField,
)

const Names = () => v.union([v.array(v.string()), v.null()])

const Scopes = v.object({
	userbot_ids: v.union([v.array(S.Id()), v.null()]),
	groups: Names(),
	commands: Names(),
	read_only: v.boolean(),
	webhooks: v.boolean(),
	td_invoke: v.boolean(),
})
export const ApiKey = v.object({
	id: S.Id(),
	name: v.string(),
	prefix: v.pipe(v.string(), v.description('The first characters of the key, to tell keys apart.')),
	scopes: Scopes,
	expires_at: v.union([v.pipe(v.string(), v.metadata({ format: 'date-time' })), v.null()]),
	last_used_at: v.union([v.pipe(v.string(), v.metadata({ format: 'date-time' })), v.null()]),
	created_at: v.pipe(v.string(), v.metadata({ format: 'date-time' })),
	bot_api: v.pipe(v.boolean(), v.description('Whether the key is also a Bot API token.')),
})
