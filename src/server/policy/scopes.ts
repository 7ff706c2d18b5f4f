/**
 * What an API key may reach: its owner's principal narrowed by these scopes (docs/operator.md#api-keys).
 * The scopes are data; what they allow is decided in one place, `can` (./can.ts), for every face.
 */
export interface KeyScopes {
	/** The userbots it may use; null: every userbot of the company. */
	userbotIds: readonly number[] | null
	/** Command groups (plugin ids) it may use; null with `commands` null: every group. */
	groups: readonly string[] | null
	/** Single commands it may send, beside those of `groups`. */
	commands: readonly string[] | null
	/** Only what reads (a policy entry's `read` action): no change of any kind. */
	readOnly: boolean
	/** May reach the company's webhook endpoints (`/api/webhooks/`). */
	webhooks: boolean
	/**
	 * May send `td_invoke` (any TDLib method the operator's TD_INVOKE_METHODS lists,
	 * docs/operator.md#any-tdlib-method): an entry marked `tdInvoke` asks for it.
	 */
	tdInvoke: boolean
}

/** The key a principal acts through, with its scopes. */
export interface KeyGrant {
	id: number
	scopes: KeyScopes
	/** Presented as a Bot API token in a path (`<bot_user_id>:<key>`, docs/bot-api.md): the Bot API face's entry asks for it. */
	botToken?: true
}
