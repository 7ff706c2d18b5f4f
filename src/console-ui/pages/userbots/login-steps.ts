/// <reference lib="dom" />
import QRCode from 'qrcode'
import type { Ctx } from '../../context'
import { button, type Child, field, fieldValue, form, h, input } from '../../dom'

/**
 * The guided log-in of one userbot, in plain words: the step its authorization state waits for, what
 * Telegram did (where the code went, how long it is, from the state's `code_info` the channel pushed),
 * and the ways around (send the code again, change the number, a QR code instead, and back to the
 * phone number from the QR choice while it is not requested yet). On the emulator its test numbers
 * are listed (docs/emulator.md).
 */
export interface Detail {
	phone_number?: string
	code_type?: string
	code_length?: number
	password_hint?: string
	link?: string
}

export interface StepHooks {
	/** POSTs a log-in step; answers whether it was taken (errors are shown by the caller). */
	submit(path: string, body: Record<string, string>): Promise<boolean>
	/** Draws the panel again (after a local choice: change number, QR or phone). */
	redraw(): void
}

export interface LoginMemory {
	/** The number typed last, for "send the code again". */
	phone: string
	/** A local choice that overrides what the state would show. */
	choice: 'phone' | 'qr-offer' | null
	qrLink: string | null
}

const CODE_WHERE: Record<string, (phone: string) => string> = {
	authenticationCodeTypeTelegramMessage: () =>
		'Telegram sent the code as a message to the Telegram app where this account is already logged in (a phone or a computer).',
	authenticationCodeTypeSms: (p) => `Telegram sent the code by SMS to ${p}.`,
	authenticationCodeTypeSmsWord: (p) => `Telegram sent a word by SMS to ${p}.`,
	authenticationCodeTypeSmsPhrase: (p) => `Telegram sent a phrase by SMS to ${p}.`,
	authenticationCodeTypeCall: (p) => `Telegram is calling ${p} to say the code.`,
	authenticationCodeTypeFlashCall: (p) => `Telegram is calling ${p}: the code is the number that calls.`,
	authenticationCodeTypeMissedCall: (p) =>
		`Telegram is calling ${p}: the code is the end of the calling number.`,
	authenticationCodeTypeFragment: (p) => `The code for ${p} is on fragment.com.`,
	authenticationCodeTypeFirebaseAndroid: (p) => `Telegram sent the code by SMS to ${p}.`,
	authenticationCodeTypeFirebaseIos: (p) => `Telegram sent the code by SMS to ${p}.`,
}

/** The emulator's accounts (src/emulator/seed/index.ts): the code is the number's sixth digit five times. */
const TEST_NUMBERS: [phone: string, who: string][] = [
	['9996611111', 'Alice'],
	['9996621234', 'Bob'],
	['9996631111', 'Carol (two-step password: secret-2fa)'],
	['9996614444', 'Dave'],
	['9996627777', 'nobody yet: registers a new account'],
]

function testNumbers(): HTMLElement {
	return h(
		'details',
		{ class: 'test-numbers', attrs: { 'data-test-numbers': '' } },
		h('summary', null, 'This server runs the Telegram emulator: test numbers'),
		h(
			'ul',
			null,
			...TEST_NUMBERS.map(([phone, who]) =>
				h('li', null, h('code', null, phone), ` ${who}; code `, h('code', null, phone.charAt(5).repeat(5))),
			),
		),
	)
}

/** What every step is handed: the page, what the state push said, what the user chose, the hooks. */
interface Step {
	ctx: Ctx
	detail: Detail
	memory: LoginMemory
	hooks: StepHooks
	/** A button's handler that makes a local choice and draws the panel again. */
	choose(choice: LoginMemory['choice']): () => void
}

/** The phone number (step 1, or to change it), and the QR code offered instead. */
function phoneStep({ ctx, memory, hooks, choose }: Step, changing: boolean): Child[] {
	return [
		h('p', null, 'Step 1: the phone number of the Telegram account this userbot will use.'),
		form(
			'phone',
			async (f) => {
				const phone = fieldValue(f, 'phone_number')
				memory.phone = phone
				if (await hooks.submit('phone', { phone_number: phone })) memory.choice = null
			},
			field(
				'Phone number',
				input('phone_number', { inputmode: 'tel', autocomplete: 'tel', value: memory.phone || undefined }),
			),
			h('p', { class: 'hint' }, 'In international format, with the country code: +44 7700 900123.'),
			button('Send the code'),
		),
		button(
			'Log in with a QR code instead',
			{ class: 'secondary', 'data-action': 'qr-offer' },
			choose('qr-offer'),
		),
		ctx.emulator ? testNumbers() : null,
		changing
			? button('Keep the number I gave', { class: 'link', 'data-action': 'keep-number' }, choose(null))
			: null,
	]
}

/** The QR code offered before it is requested, with the way back to the phone number. */
function qrOfferStep({ hooks, memory, choose }: Step): Child[] {
	return [
		h(
			'p',
			null,
			'A QR code logs the account in from a Telegram app where it is already logged in, without a code.',
		),
		button('Show the QR code', { 'data-action': 'qr' }, async () => {
			if (await hooks.submit('qr', {})) memory.choice = null
		}),
		button('Back to the phone number', { class: 'secondary', 'data-action': 'back-to-phone' }, choose(null)),
	]
}

const changeNumber = ({ choose }: Step) =>
	button('Change the number', { class: 'secondary', 'data-action': 'change-number' }, choose('phone'))

/** The code: where Telegram sent it and how long it is, send it again, change the number. */
function codeStep(step: Step): Child[] {
	const { ctx, detail, memory, hooks } = step
	const phone = detail.phone_number ?? memory.phone
	const where = CODE_WHERE[detail.code_type ?? '']?.(phone) ?? `Telegram sent a code for ${phone}.`
	const length = detail.code_length
	return [
		h('p', { attrs: { 'data-code-sent': '' } }, where),
		form(
			'code',
			async (f) => {
				await hooks.submit('code', { code: fieldValue(f, 'code') })
			},
			field(
				'Code',
				input('code', {
					inputmode: 'numeric',
					autocomplete: 'one-time-code',
					maxlength: length ? String(length) : undefined,
				}),
			),
			h(
				'p',
				{ class: 'hint', attrs: { 'data-code-length': length ? String(length) : '' } },
				length ? `The code has ${length} digits.` : 'Type the code as you received it.',
			),
			button('Log in'),
		),
		button('Send the code again', { class: 'secondary', 'data-action': 'resend' }, async () => {
			if (phone) await hooks.submit('phone', { phone_number: phone })
		}),
		changeNumber(step),
		ctx.emulator ? testNumbers() : null,
	]
}

/** The two-step password, with its hint. */
function passwordStep(step: Step): Child[] {
	const { detail, hooks } = step
	return [
		h(
			'p',
			null,
			'This account has two-step verification: type its password (the one set in Telegram, not the code).',
		),
		form(
			'password',
			async (f) => {
				await hooks.submit('password', { password: fieldValue(f, 'password') })
			},
			field('Two-step verification password', input('password', { type: 'password', autocomplete: 'off' })),
			detail.password_hint ? h('p', { class: 'hint' }, `Hint: ${detail.password_hint}`) : null,
			button('Log in'),
		),
		changeNumber(step),
	]
}

/** A new account's name. */
function registrationStep(step: Step): Child[] {
	return [
		h('p', null, 'No Telegram account has this number yet: give the new account a name to create it.'),
		form(
			'registration',
			async (f) => {
				await step.hooks.submit('register', {
					first_name: fieldValue(f, 'first_name'),
					last_name: fieldValue(f, 'last_name'),
				})
			},
			field('First name', input('first_name')),
			field('Last name (optional)', input('last_name')),
			button('Create the account'),
		),
		changeNumber(step),
	]
}

/** The QR code to scan, and a new one on demand. */
async function qrStep({ detail, memory, hooks }: Step): Promise<Child[]> {
	const link = memory.qrLink ?? detail.link ?? null
	return [
		link ? await qrImage(link) : h('p', null, 'A QR code is waiting to be scanned.'),
		button('Make a new QR code', { class: 'secondary', 'data-action': 'qr' }, async () => {
			await hooks.submit('qr', {})
		}),
		h(
			'p',
			{ class: 'hint' },
			'Telegram takes no phone number while a QR code waits: scan it, or delete this userbot and add it again to use a number.',
		),
	]
}

export async function loginSteps(
	ctx: Ctx,
	state: string,
	detail: Detail,
	memory: LoginMemory,
	hooks: StepHooks,
): Promise<Child[]> {
	const step: Step = {
		ctx,
		detail,
		memory,
		hooks,
		choose: (choice) => () => {
			memory.choice = choice
			hooks.redraw()
		},
	}
	if (
		memory.choice === 'qr-offer' &&
		(state === 'authorizationStateWaitPhoneNumber' || state === 'authorizationStateWaitCode')
	) {
		return qrOfferStep(step)
	}
	if (state === 'authorizationStateWaitPhoneNumber' || memory.choice === 'phone') {
		return phoneStep(step, state !== 'authorizationStateWaitPhoneNumber')
	}
	if (state === 'authorizationStateWaitCode') return codeStep(step)
	if (state === 'authorizationStateWaitPassword') return passwordStep(step)
	if (state === 'authorizationStateWaitRegistration') return registrationStep(step)
	if (state === 'authorizationStateWaitOtherDeviceConfirmation') return qrStep(step)
	if (state === 'authorizationStateReady') {
		return [h('p', { class: 'ok' }, 'Logged in.')]
	}
	return [
		h(
			'p',
			null,
			'Nothing to do now: this userbot is ',
			state.replace(/^authorizationState/, '').toLowerCase(),
			'.',
		),
	]
}

async function qrImage(link: string): Promise<HTMLElement> {
	const src = await QRCode.toDataURL(link, { margin: 2, width: 220 })
	return h(
		'figure',
		null,
		h('img', { attrs: { src, alt: 'QR code to log in', 'data-qr': '' } }),
		h(
			'figcaption',
			null,
			'On a phone where this account is logged in: Telegram, Settings, Devices, Link Desktop Device, then scan this code.',
		),
	)
}
