import fc from 'fast-check'
import { hostileValue } from './frame-arbitraries'

/**
 * fast-check's arbitraries for REST requests against a route of the app: the route's own method
 * (sometimes another), its path with `:id` filled by a real id or junk, credentials or none, and a
 * body of any sort: JSON objects with the REST fields (plausible or hostile), other JSON, text that
 * is no JSON, bytes that are no UTF-8, multipart junk, a wrong or missing content type.
 */
export interface Route {
	method: string
	path: string
}

export interface RestTargets {
	/** A userbot of another company. */
	foreignUserbotId: number
}

/** Stands in a path for the fuzzing user's own userbot or invite: the driver knows the current one. */
export const OWN_ID = '{own}'

export interface RestRequest {
	method: string
	path: string
	auth: 'bearer' | 'none' | 'junk-bearer' | 'junk-cookie'
	contentType: string | null
	body: string | Uint8Array | null
	/** The body as JSON when it is one (for the record of a failure). */
	describe: string
}

const FIELDS = [
	'email',
	'password',
	'first_name',
	'last_name',
	'invite',
	'token',
	'new_password',
	'refresh',
	'name',
	'phone_number',
	'code',
]

function plausible(field: string): fc.Arbitrary<unknown> {
	if (field === 'email')
		return fc.constantFrom(
			'fuzz@example.com',
			'FUZZ@Example.COM ',
			'a@b',
			'x'.repeat(300),
			'e\u0301@example.com',
		)
	if (/password/.test(field)) return fc.constantFrom('Correct-Horse-42', 'short', '12345678901', '')
	if (field === 'phone_number') return fc.constantFrom('9996621234', '+99966 2 1234', '')
	if (field === 'code') return fc.constantFrom('22222', '1')
	return fc.string({ maxLength: 40 })
}

const objectBody = fc
	.tuple(
		fc.tuple(
			...FIELDS.map((f) =>
				fc.option(fc.oneof({ arbitrary: plausible(f), weight: 2 }, { arbitrary: hostileValue, weight: 1 }), {
					nil: undefined,
					freq: 3,
				}),
			),
		),
		fc.dictionary(fc.string({ maxLength: 10 }), hostileValue, { maxKeys: 2 }),
	)
	.map(([values, extra]) => {
		const o: Record<string, unknown> = { ...extra }
		FIELDS.forEach((f, i) => {
			if (values[i] !== undefined) o[f] = values[i]
		})
		return JSON.stringify(o)
	})

const bodyArb: fc.Arbitrary<string | Uint8Array | null> = fc.oneof(
	{ arbitrary: objectBody, weight: 6 },
	{ arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'), weight: 2 },
	{ arbitrary: fc.string({ unit: 'binary', maxLength: 80 }), weight: 2 },
	{ arbitrary: fc.uint8Array({ maxLength: 60 }).map((b) => Uint8Array.from([0xc3, 0x28, ...b])), weight: 1 },
	{
		arbitrary: fc.constantFrom(
			'{"email": 1e400}',
			'{"__proto__": {"isOwner": true}, "email": "p@example.com"}',
			'{"email": "a@example.com", "email": "b@example.com"}',
			`{"a": ${'['.repeat(5000)}${']'.repeat(5000)}}`,
			'--x\r\nContent-Disposition: form-data; name="file"; filename="../../etc/passwd"\r\n\r\nhi\r\n--x--\r\n',
			'--x\r\nContent-Disposition: form-data; name="file"\r\n\r\n',
			// Past the 2.5 MiB a JSON body may have (413).
			`{"email": "${'x'.repeat(3 * 1024 * 1024)}"}`,
		),
		weight: 1,
	},
	{ arbitrary: fc.constant(null), weight: 1 },
)

const contentTypeArb = fc.oneof(
	{ arbitrary: fc.constant('application/json'), weight: 8 },
	{
		arbitrary: fc.constantFrom(
			null,
			'text/plain',
			'application/json; charset=utf-16',
			'application/vnd.api+json',
			'multipart/form-data; boundary=x',
			'multipart/form-data',
			'application/x-www-form-urlencoded',
			'',
		),
		weight: 2,
	},
)

function idArb(t: RestTargets): fc.Arbitrary<string> {
	return fc.oneof(
		{ arbitrary: fc.constant(OWN_ID), weight: 6 },
		{
			arbitrary: fc.constantFrom(
				String(t.foreignUserbotId),
				'0',
				'-1',
				'999999',
				'99999999999999999999',
				'1.5',
				'abc',
				'%00',
				'%2e%2e',
				'1e3',
				'0x1',
			),
			weight: 2,
		},
	)
}

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']

export function requestArbitrary(routes: readonly Route[], t: RestTargets): fc.Arbitrary<RestRequest> {
	return fc.constantFrom(...routes).chain((route) =>
		fc
			.record({
				method: fc.oneof(
					{ arbitrary: fc.constant(route.method), weight: 8 },
					{ arbitrary: fc.constantFrom(...OTHER_METHODS), weight: 1 },
				),
				id: idArb(t),
				auth: fc.oneof(
					{ arbitrary: fc.constant<RestRequest['auth']>('bearer'), weight: 6 },
					{
						arbitrary: fc.constantFrom<RestRequest['auth']>('none', 'junk-bearer', 'junk-cookie'),
						weight: 2,
					},
				),
				contentType: contentTypeArb,
				body: bodyArb,
			})
			.map(({ method, id, auth, contentType, body }) => ({
				method,
				path: route.path.replace(':id', id),
				auth,
				contentType,
				// GET and HEAD carry no body in fetch.
				body: method === 'GET' || method === 'HEAD' ? null : body,
				describe: `${method} ${route.path.replace(':id', id)} (${auth}, ${contentType}) ${
					typeof body === 'string' ? body.slice(0, 200) : body ? `<${body.length} bytes>` : ''
				}`,
			})),
	)
}
