import { tdFunctionNames } from 'userbot-gateway/plugin'

/**
 * The TDLib methods td_invoke never sends, whatever TD_INVOKE_METHODS says (`all` included), each
 * group with its reason: docs/operator.md#any-tdlib-method lists them for the operator. Every name
 * is a TDLib 1.8.65 function (test/plugins/commands-td-invoke/sets.test.ts holds it to that).
 */
export interface DeniedGroup {
	readonly reason: string
	readonly methods: readonly string[]
}

/** Every log-in step TDLib has: the names with `Authentication` in them (`setAuthenticationPhoneNumber`...). */
const AUTHENTICATION = tdFunctionNames().filter((m) => m.includes('Authentication'))

export const DENIED: readonly DeniedGroup[] = [
	{
		reason:
			"TDLib's logging: a log stream writes a file on the server's disk, and the log settings hold for every userbot of the process",
		methods: [
			'setLogStream',
			'getLogStream',
			'setLogVerbosityLevel',
			'getLogVerbosityLevel',
			'getLogTags',
			'setLogTagVerbosityLevel',
			'getLogTagVerbosityLevel',
			'addLogMessage',
		],
	},
	{
		reason:
			"TDLib's parameters and the client's life: the supervisor sets them (the database folder, the API id) and owns the client",
		methods: ['setTdlibParameters', 'close', 'destroy'],
	},
	{
		reason:
			"the database's encryption key: the gateway keeps it sealed; another key leaves the userbot unopenable",
		methods: ['setDatabaseEncryptionKey'],
	},
	{
		reason:
			"the log-in and log-out: the userbot's log-in steps and its log-out route own the authorization state",
		methods: [...AUTHENTICATION, 'registerUser', 'logOut'],
	},
	{
		reason:
			'who can log in to the account: another device (a QR code, an unconfirmed session), its phone number, its log-in e-mail and passkeys, the 2FA password and its recovery e-mail (the security commands own the password, each try counted against the guess limit, each change audited)',
		methods: [
			'confirmQrCodeAuthentication',
			'confirmSession',
			'sendPhoneNumberCode',
			'resendPhoneNumberCode',
			'checkPhoneNumberCode',
			'sendPhoneNumberFirebaseSms',
			'reportPhoneNumberCodeMissing',
			'isLoginEmailAddressRequired',
			'setLoginEmailAddress',
			'resendLoginEmailAddressCode',
			'checkLoginEmailAddressCode',
			'addLoginPasskey',
			'removeLoginPasskey',
			'setPassword',
			'getRecoveryEmailAddress',
			'setRecoveryEmailAddress',
			'checkRecoveryEmailAddressCode',
			'resendRecoveryEmailAddressCode',
			'cancelRecoveryEmailAddressVerification',
			'requestPasswordRecovery',
			'checkPasswordRecoveryCode',
			'recoverPassword',
			'resetPassword',
			'cancelPasswordReset',
			'createTemporaryPassword',
			'getPassportElement',
			'getAllPassportElements',
		],
	},
	{
		reason:
			"the account's 2FA password, which these take: td_invoke would let a key guess it past the guess limit the commands count (transfer_chat_ownership does the transfer, counted and audited), and take the account's money out",
		methods: [
			'transferChatOwnership',
			'setPassportElement',
			'getPassportAuthorizationFormAvailableElements',
			'getChatRevenueWithdrawalUrl',
			'getStarWithdrawalUrl',
			'getTonWithdrawalUrl',
			'getUpgradedGiftWithdrawalUrl',
		],
	},
	{
		reason:
			'logging the account in elsewhere: an OAuth request of a website, and a device that receives its notifications',
		methods: ['acceptOauthRequest', 'checkOauthRequestMatchCode', 'registerDevice'],
	},
	{
		reason:
			"the account's end: deleting it, or the self-destruct period that deletes it (set_account_ttl, audited)",
		methods: ['deleteAccount', 'setAccountTtl'],
	},
	{
		reason:
			"the operator's proxy policy: a userbot's proxy is set through its route (PROXY_ALLOWED_HOSTS, audited); getProxies shows a proxy's password, pingProxy and testProxy dial any address from the server",
		methods: [
			'addProxy',
			'editProxy',
			'enableProxy',
			'disableProxy',
			'removeProxy',
			'getProxies',
			'pingProxy',
			'testProxy',
		],
	},
	{
		reason:
			"files on the server's disk: no client names a file to generate, and the files route reads downloads part by part within its limits",
		methods: ['writeGeneratedFilePart', 'setFileGenerationProgress', 'finishFileGeneration', 'readFilePart'],
	},
	{
		reason:
			"TDLib's options and secrets: setOption changes any writable option the supervisor relies on (read them with getOption); a managed bot's token; the app's verification tokens",
		methods: ['setOption', 'getManagedBotToken', 'setApplicationVerificationToken'],
	},
]

const DENIED_SET: ReadonlySet<string> = new Set(DENIED.flatMap((g) => g.methods))

export const isDenied = (method: string): boolean => DENIED_SET.has(method)
