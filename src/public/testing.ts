/** `userbot-gateway/testing`: a server on the Telegram emulator for a plugin's own tests. */
export {
	startTestServer,
	type TestServer,
	type TestServerOptions,
	type TestUser,
} from '../app/testing/server'
