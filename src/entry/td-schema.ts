import { readFileSync, writeFileSync } from 'node:fs'
import {
	probeNumbers,
	readDeclarations,
	SCHEMA_FILE,
	serialize,
	TYPES_FILE,
} from '../runtime/telegram/schema/generate'
import { createParseOnlyClient } from '../runtime/telegram/tdlib'

/**
 * `npm run td-schema`: writes src/runtime/telegram/schema/tdlib-schema.json from `@prebuilt-tdlib/types`
 * and real TDLib's parser (src/runtime/telegram/schema/generate.ts); `--check` exits 1 when the committed
 * file differs from what they give.
 */
const schema = readDeclarations(readFileSync(TYPES_FILE, 'utf8'))
const client = createParseOnlyClient()
try {
	await probeNumbers(schema, (requests) => client.judge(requests))
} finally {
	await client.close()
}
const text = serialize(schema)
if (process.argv.includes('--check')) {
	const same = readFileSync(SCHEMA_FILE, 'utf8') === text
	process.stdout.write(
		same ? 'tdlib-schema.json is up to date\n' : 'tdlib-schema.json differs: regenerate it\n',
	)
	process.exit(same ? 0 : 1)
}
writeFileSync(SCHEMA_FILE, text)
const count = (o: object) => Object.keys(o).length
process.stdout.write(
	`tdlib-schema.json: ${count(schema.functions)} functions, ${count(schema.constructors)} constructors, ${count(schema.classes)} classes (TDLib ${schema.version})\n`,
)
process.exit(0)
