/**
 * A stand-in main server on 127.0.0.1 for what a real one does not do on demand: answer slowly,
 * fail, or send garbage. Records every call (method and path) so tests can count them.
 */
export interface FakeMain {
	url: string
	calls: string[]
	/** JSON bodies of the calls, in order (the passwords and tokens it was sent). */
	bodies: unknown[]
	/** A promise that settles only when the fake stops: a handler awaiting it never answers. */
	never(): Promise<void>
	stop(): Promise<void>
}

export type FakeHandler = (path: string, request: Request) => Response | Promise<Response>

export function startFakeMain(handler: FakeHandler): FakeMain {
	const calls: string[] = []
	const bodies: unknown[] = []
	const pending = new Set<() => void>()
	const server = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		async fetch(request) {
			const path = new URL(request.url).pathname
			calls.push(`${request.method} ${path}`)
			const text = await request.text()
			bodies.push(text ? JSON.parse(text) : null)
			return handler(path, request)
		},
	})
	return {
		url: `http://127.0.0.1:${server.port}`,
		calls,
		bodies,
		never: () =>
			new Promise<void>((resolve) => {
				pending.add(resolve)
			}),
		async stop() {
			for (const release of pending) release()
			await server.stop(true)
		},
	}
}

export const jsonAnswer = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
	new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })

/** A token pair shaped as family A's (three base64url parts). */
export const FAKE_PAIR = {
	access: 'eyJhbGciOiJIUzI1NiJ9.eyJhIjoxfQ.c2ln',
	refresh: 'eyJhbGciOiJIUzI1NiJ9.eyJyIjoxfQ.cmVm',
}

export const FAKE_PROFILE = {
	id: 41,
	email: 'fake-owner@example.com',
	first_name: 'Fake',
	last_name: 'Owner',
	status: { code: 'active', name: 'Active' },
	company: { id: 7, name: "Fake's company", active: true },
	is_owner: true,
}

/** A response whose headers arrive and whose body never does (until the server stops). */
export function stalledBody(): Response {
	const stream = new ReadableStream({
		start(controller) {
			controller.enqueue(new TextEncoder().encode('{"access": '))
		},
	})
	return new Response(stream, { headers: { 'content-type': 'application/json' } })
}
