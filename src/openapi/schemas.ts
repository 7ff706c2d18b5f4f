import { t } from 'elysia'
import * as v from 'valibot'
import { choice, drfBody, AccountFields as Fields } from '../http/body-schema'
import { FIELD_MESSAGES } from '../http/field-messages'
import { isPermission, PERMISSION_NAMES } from '../policy/permissions'
import { STATES } from '../telegram/authorization-states'

/** An integer, as JSON Schema says it (Elysia's `t.Integer` also takes a string of digits). */
export const Int = () => t.Unsafe<number>({ type: 'integer' })
/** A row's id: SQLite's 64-bit integer key (JSON readers keep it exact up to 2^53). */
export const Id = () => t.Unsafe<number>({ type: 'integer', format: 'int64' })
export { IdParams, PathId } from '../http/path-params'

/**
 * The REST bodies as the routes read and write them (Django REST framework's shapes,
 * docs/rest.md#conventions): the answers as TypeBox schemas, the bodies as valibot ones (issue 44,
 * src/http/body-schema.ts). The OpenAPI document is made of them, and the Eden client is typed by
 * them. A test checks real answers of the routes against them.
 */

/** `{detail, code?}`: every error that is not about one field. */
export const Detail = t.Object(
	{ detail: t.String(), code: t.Optional(t.String()) },
	{ description: 'An error not about one field (401, 403, 404, 405, 413, 429, 5xx).' },
)

/** `{"<field>": ["message", ...]}` (and `non_field_errors`): a 400 about the fields sent. */
export const FieldErrors = t.Record(t.String(), t.Array(t.String()), {
	description:
		'Field errors: each field sent wrong, with its messages (`non_field_errors` for the body as a whole).',
})

/** The account fields are checked as DRF checks them (src/http/field-schema.ts); in JSON, strings with a length. */
export const Email = Fields.email({ description: 'normalised: trimmed, lower case, NFC' })
export const Password = Fields.password()

export const TokenPair = t.Object({ access: t.String(), refresh: t.String() })
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
export const Registered = t.Object({
	id: Id(),
	email: t.String(),
	first_name: t.String(),
	last_name: t.String(),
})

export const CheckPassword = drfBody({
	email: Email,
	password: Password,
	first_name: v.optional(Fields.name()),
	last_name: v.optional(Fields.name()),
})
export const PasswordProblems = t.Object({ email: t.Array(t.String()), password: t.Array(t.String()) })

export const Session = t.Object({
	sessionid: t.String(),
	user: t.Object({ id: Id(), email: t.String() }),
})
export const Message = t.Object({ message: t.String() })

export const ResetRequest = drfBody({
	email: Email,
	token: v.optional(Fields.token({ description: 'with a token: checks it instead of mailing one' })),
})
export const ResetAnswer = t.Union([t.Object({ detail: t.String() }), t.Object({ valid: t.Literal(true) })])
export const ResetPassword = drfBody({ email: Email, token: Fields.token(), new_password: Password })

export const Profile = t.Object({
	id: Id(),
	email: t.String(),
	first_name: t.String(),
	last_name: t.String(),
	status: t.Object({ code: t.String(), name: t.String() }),
	company: t.Union([t.Object({ id: Id(), name: t.String(), active: t.Boolean() }), t.Null()]),
	is_owner: t.Boolean(),
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
	email: t.Union([t.String(), t.Null()]),
	expires_at: t.String({ description: 'ISO 8601' }),
	state: t.Union([t.Literal('pending'), t.Literal('accepted'), t.Literal('revoked'), t.Literal('expired')]),
}
export const InviteCreated = t.Object({
	...inviteFields,
	token: t.String({ description: 'shown this once' }),
})
export const Invite = t.Object(inviteFields)

export const WorkStatus = t.Object({ code: t.String(), name: t.String(), allows_work: t.Boolean() })
export const Member = t.Object({
	id: Id(),
	email: t.String(),
	first_name: t.String(),
	last_name: t.String(),
	is_owner: t.Boolean(),
	active: t.Boolean(),
	status: WorkStatus,
})
export const PermissionName = t.Union(
	PERMISSION_NAMES.map((name) => t.Literal(name)),
	{ description: 'an owner-only permission, as /accounts/permissions/ lists them' },
)
export const PermissionInfo = t.Object({ code: PermissionName, description: t.String() })
/** DRF's ChoiceField's words. */
export const INVALID_CHOICE = FIELD_MESSAGES.invalidChoice
export const GrantRequest = drfBody({ permission: choice(isPermission, PermissionName) })
export const Grant = t.Object({
	permission: PermissionName,
	granted_by: t.Union([Id(), t.Null()], { description: 'the owner who granted it' }),
	granted_at: t.String({ description: 'ISO 8601' }),
})
export const StatusChange = drfBody({
	status: choice((code) => code.length <= 64, {
		maxLength: 64,
		description: 'a work status code from /accounts/statuses/',
		type: 'string',
	}),
})

/** TDLib 1.8.65's authorization states, by their type names. */
const StateName = t.Unsafe<string>({
	type: 'string',
	enum: Object.values(STATES),
	description: "TDLib's authorization state type name",
})
const ProxyKind = t.Union([t.Literal('socks5'), t.Literal('http'), t.Literal('mtproto')])
/** A userbot's proxy as it is set (docs/operator.md#userbot-proxies); `password` and `secret` are never shown. */
export const ProxySet = t.Object({
	type: ProxyKind,
	server: t.String({ description: 'a host name, or an IPv4 or IPv6 address' }),
	port: t.Unsafe<number>({ type: 'integer', minimum: 1, maximum: 65535 }),
	username: t.Optional(t.String({ description: 'SOCKS5 and HTTP' })),
	password: t.Optional(t.String({ description: 'SOCKS5 and HTTP; stored sealed, never shown' })),
	http_only: t.Optional(t.Boolean({ description: 'HTTP: plain HTTP requests only, no CONNECT' })),
	secret: t.Optional(t.String({ description: 'MTProto (required): hexadecimal or base64url; never shown' })),
})
export const ProxyView = t.Object({
	type: ProxyKind,
	server: t.String(),
	port: Int(),
	username: t.Optional(t.String()),
	http_only: t.Optional(t.Boolean()),
	has_password: t.Optional(t.Boolean({ description: 'SOCKS5 and HTTP: a password is stored' })),
	check: t.Union([
		t.Object({ ok: t.Literal(true), latency_ms: Int(), checked_at: t.String({ description: 'ISO 8601' }) }),
		t.Object({
			ok: t.Literal(false),
			error: t.String({ description: "TDLib's message, or why no check could run" }),
			checked_at: t.String({ description: 'ISO 8601' }),
		}),
		t.Null(),
	]),
})
export const Userbot = t.Object({
	id: Id(),
	name: t.String(),
	phone_number: t.Union([t.String(), t.Null()]),
	authorization_state: StateName,
	status: t.String({ description: "the account's health (docs/flood-and-health.md)" }),
	status_until: t.Optional(Int()),
	proxy: t.Union([ProxyView, t.Null()]),
})
export const UserbotCreated = t.Object({ id: Id(), authorization_state: StateName })
export const AuthorizationState = t.Object({ authorization_state: StateName })
export const QrLink = t.Object({ link: t.String({ description: 'tg://login?token=...' }) })
export const Upload = t.Object({ file: t.File({ description: 'the media file' }) })
/** A file's bytes (`GET /api/userbots/{id}/files/{file_id}`), whole or the asked `Range`. */
export const FileBytes = t.String({ format: 'binary', description: "the file's bytes, typed by its name" })

export const FileProgress = t.Object({
	// bytes TDLib has so far, and the whole size (0 while unknown)
	downloaded_size: Int(),
	expected_size: Int(),
})

export const Uploaded = t.Object({
	file: t.String({ description: 'the name to use as {"upload": "<file>"} in commands' }),
	size: Int(),
})

export const Health = t.Object({
	status: t.Union([t.Literal('ok'), t.Literal('degraded')]),
	database: t.String(),
	supervisor: t.String(),
	bus: t.Optional(
		t.Object(
			{
				connected: t.Boolean(),
				feed: t.Object({ up: t.Boolean(), pending: Int(), behind_ms: Int() }),
				lease_mismatches: Int(),
				degraded: t.Boolean(),
			},
			{
				description:
					'With the bus (ROLE=gateway or all with BUS_URL): the connection, the update feed, the leases',
			},
		),
	),
	capacity: t.Optional(
		t.Object(
			{
				room: t.Boolean({
					description: 'a new userbot fits: a start now is not refused with `capacity reached: ...`',
				}),
			},
			{
				description:
					"When a limit is known (docs/capacity.md#watching-it): whether this process's supervisor children (or, on a gateway, the live shards together) have room for one more TDLib client. The counts are metrics (`ubg_capacity_clients`, `ubg_capacity_used`), not public",
			},
		),
	),
})

/** `{}`: an answer with nothing to say (token/blacklist/). */
export const EmptyObject = t.Object({})
/** `{detail}`: a success told in a sentence. */
export const DetailOnly = t.Object({ detail: t.String() })
