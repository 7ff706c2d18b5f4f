import { describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { constructorsOf, TD_SCHEMA } from '../../src/runtime/telegram/schema'
import {
	probeNumbers,
	readDeclarations,
	SCHEMA_FILE,
	serialize,
} from '../../src/runtime/telegram/schema/generate'
import { startTdlibChild } from './tdlib-child'

const TYPES = join(import.meta.dir, '../../node_modules/@prebuilt-tdlib/types/tdlib-types.d.ts')

describe('the TDLib schema', () => {
	it('is what @prebuilt-tdlib/types and real TDLib give today (regenerate it when they change)', async () => {
		const schema = readDeclarations(readFileSync(TYPES, 'utf8'))
		// Real TDLib's parser, in a process of its own (tdlib-child.ts).
		const td = await startTdlibChild()
		try {
			await probeNumbers(schema, (requests) => td.judge(requests))
		} finally {
			await td.stop()
		}
		expect(serialize(schema) === readFileSync(SCHEMA_FILE, 'utf8')).toBe(true)
	}, 60_000)

	it('knows TDLib 1.8.65 whole: its functions, input constructors and classes', () => {
		expect(TD_SCHEMA.version).toBe('1.8.65')
		expect(Object.keys(TD_SCHEMA.functions).length).toBeGreaterThan(900)
		expect(Object.keys(TD_SCHEMA.constructors).length).toBeGreaterThan(800)
		expect(constructorsOf('MessageSender')).toEqual(['messageSenderUser', 'messageSenderChat'])
		expect(constructorsOf('InputFile')).toContain('inputFileLocal')
		expect(TD_SCHEMA.updates).toContain('updateNewMessage')
		expect(TD_SCHEMA.updates.length).toBeGreaterThan(150)
	})

	it('tells apart the numbers the .d.ts writes alike, as real TDLib reads them', () => {
		expect(TD_SCHEMA.functions.getChats?.fields).toEqual({ chat_list: 'ChatList', limit: 'int32' })
		expect(TD_SCHEMA.functions.getChat?.fields.chat_id).toBe('int53')
		expect(TD_SCHEMA.functions.terminateSession?.fields.session_id).toBe('int64')
		expect(TD_SCHEMA.constructors.location?.fields.latitude).toBe('double')
		expect(TD_SCHEMA.functions.deleteMessages?.fields.message_ids).toBe('vector<int53>')
		expect(TD_SCHEMA.functions.setDatabaseEncryptionKey?.fields.new_encryption_key).toBe('bytes')
	})

	it('marks the methods TDLib runs synchronously, which the probes leave alone', () => {
		expect(TD_SCHEMA.functions.getJsonString?.synchronous).toBe(true)
		expect(TD_SCHEMA.functions.getOption?.synchronous).toBe(true)
		expect(TD_SCHEMA.functions.getChat?.synchronous).toBeUndefined()
	})
})
