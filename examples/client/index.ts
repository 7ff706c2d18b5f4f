import { CommandFailed, createClient, createRestClient } from '@userbot-gateway/client'

// `npm run demo`'s server and user; "Typed client" in docs/development.md shows this file, and a test runs it.
const url = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8000'
const email = process.env.GATEWAY_EMAIL ?? 'demo@example.com'
const password = process.env.GATEWAY_PASSWORD ?? 'Lamp-Orbit-4821'
const TEAM_CHAT = -2001

// REST through Eden: paths, bodies and answers typed by the API's contract, errors included.
const tokens = await createRestClient(url).accounts.token.post({ email, password })
if (!tokens.data) throw new Error(`no token: ${tokens.status} ${JSON.stringify(tokens.error?.value)}`)
const rest = createRestClient(url, { token: tokens.data.access })
const { data: userbots } = await rest.api.userbots.get()
const userbot_id = userbots?.find((b) => b.authorization_state === 'authorizationStateReady')?.id
if (userbot_id === undefined) throw new Error('no userbot logged in yet')

// The command channel: each command's input and result typed by the command registry.
const client = createClient({ url, token: tokens.data.access })
try {
	const updates = client.updates(userbot_id, { kinds: ['updateNewMessage'] })
	await updates.ready
	const sent = await client.send('send_message', { userbot_id, chat_id: TEAM_CHAT, text: 'Hello, client' })
	console.log('sent', sent._)
	for await (const event of updates) {
		if (event.type !== 'update') continue // a `resync`: refresh what you hold
		console.log('update', event.seq, event.update._)
		break // leaving the loop unsubscribes
	}
	await client.send('pin_message', { userbot_id, chat_id: TEAM_CHAT, message_id: 1 }).catch((err) => {
		if (!(err instanceof CommandFailed)) throw err
		console.log('refused', err.error) // the wire string: ours or TDLib's
	})
} finally {
	client.close()
}
