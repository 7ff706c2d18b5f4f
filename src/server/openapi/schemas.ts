import * as v from 'valibot'
import { STATES } from '../../runtime/telegram/authorization-states'
import { choice, documentedAs, drfBody, AccountFields as Fields } from '../http/body-schema'
import { FIELD_MESSAGES } from '../http/field-messages'
import { schemaJson } from '../http/schema-json'
import { isPermission, PERMISSION_NAMES } from '../policy/permissions'

/** An integer, as JSON Schema says it. */
export const Int = () => v.pipe(v.number(), v.integer())
/** A row's id: SQLite's 64-bit integer key (JSON readers keep it exact up to 2^53). */
export const Id = () => v.pipe(v.number(), v.integer(), v.metadata({ format: 'int64' }))
export { IdParams, PathId } from '../http/path-params'

/** A string described for the document. */
const Text = (description: string) => v.pipe(v.string(), v.description(description))
/** An ISO 8601 date and time, as the answers write them. */
const Iso = () => Text('ISO 8601')

/**
 * The REST bodies as the routes read and write them (Django REST framework's shapes,
 * docs/rest.md#conventions), all valibot (issue 44, one schema language: src/server/http/body-schema.ts
 * for the bodies, src/server/http/schema-json.ts for their JSON). The OpenAPI document is made of them,
 * and the Eden client is typed by them. A test checks real answers of the routes against them.
 */

/** `{detail, code?}`: every error that is not about one field. */
export const Detail = v.pipe(
	v.object({ detail: v.string(), code: v.optional(v.string()) }),
	v.description('An error not about one field (401, 403, 404, 405, 413, 429, 5xx).'),
)

/** `{"<field>": ["message", ...]}` (and `non_field_errors`): a 400 about the fields sent. */
export const FieldErrors = v.pipe(
	v.record(v.string(), v.array(v.string())),
	v.description(
		'Field errors: each field sent wrong, with its messages (`non_field_errors` for the body as a whole).',
	),
)

/** The account fields are checked as DRF checks them (src/server/http/field-rule.ts); in JSON, strings with a length. */
export const Email = Fields.email({ description: 'normalised: trimmed, lower case, NFC' })
export const Password = Fields.password()

export const TokenPair = v.object({ access: v.string(), refresh: v.string() })
export const Refresh = drfBody({ refresh: Fields.token() })
export const Credentials = drfBody({ email: Email, password: Password })

export const Registration = drfBody({
	email: Email,
	password: Password,
	first_name: v.optional(Fields.name()),
	last_name: v.optional(Fields.name()),
	invite: v.optional(
		Fields.custom(
			{ max: 512, kind: 'token', optional: true },
			{ description: 'an invite token: joins the inviting company' },
		),
	),
})
export const Registered = v.object({
	id: Id(),
	email: v.string(),
	first_name: v.string(),
	last_name: v.string(),
})

export const CheckPassword = drfBody({
	email: Email,
	password: Password,
	first_name: v.optional(Fields.name()),
	last_name: v.optional(Fields.name()),
})
export const PasswordProblems = v.object({ email: v.array(v.string()), password: v.array(v.string()) })

export const Session = v.object({
	sessionid: v.string(),
	user: v.object({ id: Id(), email: v.string() }),
})
export const Message = v.object({ message: v.string() })

export const ResetRequest = drfBody({
	email: Email,
	token: v.optional(Fields.token({ description: 'with a token: checks it instead of mailing one' })),
})
export const ResetAnswer = v.union([v.object({ detail: v.string() }), v.object({ valid: v.literal(true) })])
export const ResetPassword = drfBody({ email: Email, token: Fields.token(), new_password: Password })

export const Profile = v.object({
	id: Id(),
	email: v.string(),
	first_name: v.string(),
	last_name: v.string(),
	status: v.object({ code: v.string(), name: v.string() }),
	company: v.nullable(v.object({ id: Id(), name: v.string(), active: v.boolean() })),
	is_owner: v.boolean(),
})

export const InviteRequest = drfBody({
	email: v.optional(
		Fields.custom(
			{ max: 254, kind: 'email', optional: true },
			{ description: 'only this e-mail may use the invite' },
		),
	),
})
const inviteFields = {
	id: Id(),
	email: v.nullable(v.string()),
	expires_at: Iso(),
	state: v.picklist(['pending', 'accepted', 'revoked', 'expired']),
}
export const InviteCreated = v.object({
	...inviteFields,
	token: Text('shown this once'),
})
export const Invite = v.object(inviteFields)

export const WorkStatus = v.object({ code: v.string(), name: v.string(), allows_work: v.boolean() })
export const Member = v.object({
	id: Id(),
	email: v.string(),
	first_name: v.string(),
	last_name: v.string(),
	is_owner: v.boolean(),
	active: v.boolean(),
	status: WorkStatus,
})
export const PermissionName = v.pipe(
	v.picklist(PERMISSION_NAMES),
	v.description('an owner-only permission, as /accounts/permissions/ lists them'),
)
export const PermissionInfo = v.object({ code: PermissionName, description: v.string() })
/** DRF's ChoiceField's words. */
export const INVALID_CHOICE = FIELD_MESSAGES.invalidChoice
export const GrantRequest = drfBody({ permission: choice(isPermission, schemaJson(PermissionName)) })
export const Grant = v.object({
	permission: PermissionName,
	granted_by: v.pipe(v.nullable(Id()), v.description('the owner who granted it')),
	granted_at: Iso(),
})
export const StatusChange = drfBody({
	status: choice((code) => code.length <= 64, {
		maxLength: 64,
		description: 'a work status code from /accounts/statuses/',
		type: 'string',
	}),
})

/** TDLib 1.8.65's authorization states, by their type names. */
const StateName = v.pipe(
	v.picklist(Object.values(STATES)),
	v.description("TDLib's authorization state type name"),
)
const ProxyKind = v.picklist(['socks5', 'http', 'mtproto'])
/** A userbot's proxy as it is set (docs/operator.md#userbot-proxies); `password` and `secret` are never shown. */
export const ProxySet = v.object({
	type: ProxyKind,
	server: Text('a host name, or an IPv4 or IPv6 address'),
	port: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65535)),
	username: v.optional(Text('SOCKS5 and HTTP')),
	password: v.optional(Text('SOCKS5 and HTTP; stored sealed, never shown')),
	http_only: v.optional(v.pipe(v.boolean(), v.description('HTTP: plain HTTP requests only, no CONNECT'))),
	secret: v.optional(Text('MTProto (required): hexadecimal or base64url; never shown')),
})
export const ProxyView = v.object({
	type: ProxyKind,
	server: v.string(),
	port: Int(),
	username: v.optional(v.string()),
	http_only: v.optional(v.boolean()),
	has_password: v.optional(v.pipe(v.boolean(), v.description('SOCKS5 and HTTP: a password is stored'))),
	check: v.union([
		v.object({ ok: v.literal(true), latency_ms: Int(), checked_at: Iso() }),
		v.object({
			ok: v.literal(false),
			error: Text("TDLib's message, or why no check could run"),
			checked_at: Iso(),
		}),
		v.null(),
	]),
})
export const Userbot = v.object({
	id: Id(),
	name: v.string(),
	phone_number: v.nullable(v.string()),
	authorization_state: StateName,
	status: Text("the account's health (docs/flood-and-health.md)"),
	status_until: v.optional(Int()),
	proxy: v.nullable(ProxyView),
})
export const UserbotCreated = v.object({ id: Id(), authorization_state: StateName })
export const AuthorizationState = v.object({ authorization_state: StateName })
export const QrLink = v.object({ link: Text('tg://login?token=...') })
export const Upload = v.object({
	file: documentedAs(v.file(), { type: 'string', format: 'binary', description: 'the media file' }),
})
/** A file's bytes (`GET /api/userbots/{id}/files/{file_id}`), whole or the asked `Range`. */
export const FileBytes = v.pipe(
	v.string(),
	v.metadata({ format: 'binary' }),
	v.description("the file's bytes, typed by its name"),
)

export const FileProgress = v.object({
	// bytes TDLib has so far, and the whole size (0 while unknown)
	downloaded_size: Int(),
	expected_size: Int(),
})

export const Uploaded = v.object({
	file: Text('the name to use as {"upload": "<file>"} in commands'),
	size: Int(),
})

export const Health = v.object({
	status: v.picklist(['ok', 'degraded']),
	database: v.string(),
	supervisor: v.string(),
	bus: v.optional(
		v.pipe(
			v.object({
				connected: v.boolean(),
				feed: v.object({ up: v.boolean(), pending: Int(), behind_ms: Int() }),
				lease_mismatches: Int(),
				degraded: v.boolean(),
			}),
			v.description(
				'With the bus (ROLE=gateway or all with BUS_URL): the connection, the update feed, the leases',
			),
		),
	),
	capacity: v.optional(
		v.pipe(
			v.object({
				room: v.pipe(
					v.boolean(),
					v.description('a new userbot fits: a start now is not refused with `capacity reached: ...`'),
				),
			}),
			v.description(
				"When a limit is known (docs/capacity.md#watching-it): whether this process's supervisor children (or, on a gateway, the live shards together) have room for one more TDLib client. The counts are metrics (`ubg_capacity_clients`, `ubg_capacity_used`), not public",
			),
		),
	),
})

/** `{}`: an answer with nothing to say (token/blacklist/). */
export const EmptyObject = v.object({})
/** `{detail}`: a success told in a sentence. */
export const DetailOnly = v.object({ detail: v.string() })
