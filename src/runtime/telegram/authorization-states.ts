/**
 * TDLib 1.8.65's authorization states by their type names (docs/tdlib-mapping.md#account-lifecycle):
 * what the userbot lifecycle steps through, and what the REST document names.
 */
export const STATES = {
	parameters: 'authorizationStateWaitTdlibParameters',
	phone: 'authorizationStateWaitPhoneNumber',
	premium: 'authorizationStateWaitPremiumPurchase',
	emailAddress: 'authorizationStateWaitEmailAddress',
	emailCode: 'authorizationStateWaitEmailCode',
	code: 'authorizationStateWaitCode',
	otherDevice: 'authorizationStateWaitOtherDeviceConfirmation',
	registration: 'authorizationStateWaitRegistration',
	password: 'authorizationStateWaitPassword',
	ready: 'authorizationStateReady',
	loggingOut: 'authorizationStateLoggingOut',
	closing: 'authorizationStateClosing',
	closed: 'authorizationStateClosed',
} as const
