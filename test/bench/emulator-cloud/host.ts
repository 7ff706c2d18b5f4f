import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { createCloudBackend } from '../../../src/emulator/cloud'

/**
 * The other process of `emulator-cloud.ts`: hosts the emulated cloud of the folder it is given (one
 * client of its own takes the lock), says `hosting`, and stops (writing the world) when its stdin
 * closes.
 */
const dir = process.argv[2] as string
const backend = createCloudBackend({ dir })
const folder = join(dir, '..', 'host-client')
mkdirSync(folder, { recursive: true })
const client = backend.createClient(1, {
	databaseDirectory: folder,
	filesDirectory: folder,
	encryptionKey: '',
})
await client.invoke({ _: 'getOption', name: 'version' })
console.log(backend.hosting ? 'hosting' : 'not hosting')
for await (const _ of Bun.stdin.stream()) {
	// Read until the parent closes it.
}
await client.close()
await backend.close()
