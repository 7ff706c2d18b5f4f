/**
 * Commands for the tests of a server's stop, loaded by a real server process through `PLUGINS`
 * (as a third party's plugin would be): one that is answered only once the process has been told
 * to stop, so that it is in flight at SIGTERM by construction, and one that is never answered.
 */
import { defineCommand, definePlugin } from 'userbot-gateway/plugin'
import * as v from 'valibot'

export default definePlugin({
	id: 'test-held-commands',
	commands: [
		defineCommand({
			name: 'test_answer_after_sigterm',
			policy: { action: 'write' },
			methods: [],
			input: v.looseObject({}),
			requiresAuthorization: false,
			run: () =>
				new Promise((resolve) => {
					process.once('SIGTERM', () => resolve({ answered: 'after SIGTERM' }))
				}),
		}),
		defineCommand({
			name: 'test_never_answered',
			policy: { action: 'write' },
			methods: [],
			input: v.looseObject({}),
			requiresAuthorization: false,
			run: () => new Promise(() => {}),
		}),
	],
})
