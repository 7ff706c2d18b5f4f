import type * as Td from 'tdlib-types'
import { defineCommand, fields, listCap, requiredValue, tdListField, tdSlot } from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { ChatsErrors as E } from './errors'

const CONTACT = tdSlot('importedContact')
const CAP = listCap('contacts', 'contacts')

const named = (c: Td.importedContact$Input) => !!c.phone_number?.trim() && !!c.first_name?.trim()

/**
 * `import_contacts {contacts: [{phone_number, first_name, last_name?}]}` → `importContacts`: saves
 * (or renames) contacts by phone number, up to 100 a command. Each is TDLib's `importedContact`,
 * checked against TDLib's schema (`@type` may be left out); a phone number and a first name each.
 */
export const importContacts = defineCommand({
	name: 'import_contacts',
	policy: { action: 'write' },
	summary: 'Adds contacts by phone number (or renames existing ones).',
	result: {
		description:
			"TDLib's `importedContacts`: `user_ids` in the order given, 0 for a number no Telegram user has.",
		tdlib: 'importedContacts',
	},
	errors: [E.CONTACT_FIELDS],
	examples: [{ contacts: [{ phone_number: '+9996631111', first_name: 'Carol', last_name: 'Clark' }] }],
	flood: 'contacts',
	methods: ['importContacts'],
	input: fields({
		contacts: v.pipe(
			requiredValue(E.CONTACTS_REQUIRED, { type: 'array', minItems: 1, maxItems: CAP.max }),
			v.check((x) => !Array.isArray(x) || x.length <= CAP.max, CAP.tooMany),
			v.check((x) => !Array.isArray(x) || x.length > 0, E.CONTACTS_EMPTY),
			tdListField<Td.importedContact$Input>('contacts', CONTACT),
			v.check((list) => !Array.isArray(list) || list.every(named), E.CONTACT_FIELDS),
		),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'importContacts',
			contacts: (input.contacts ?? []).map((c) => ({ ...c, _: 'importedContact' as const })),
		}),
})
