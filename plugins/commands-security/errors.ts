/**
 * The security group's wire strings. The first block is ws-commands §7 word for word; the second
 * fills the gaps §7 leaves, where tdlib-mapping §3 and §8 call the protocol dangerous (an omitted
 * `new_password` that TDLib reads as "remove the password") or leaky (verify_2fa_password).
 */
export const ACCOUNT_TTL_MIN_DAYS = 30
export const ACCOUNT_TTL_MAX_DAYS = 730

export const SecurityErrors = {
	// ws-commands §7
	DAYS_REQUIRED: 'days is required',
	DAYS_OUT_OF_RANGE: `days must be between ${ACCOUNT_TTL_MIN_DAYS} and ${ACCOUNT_TTL_MAX_DAYS}`,
	RECOVERY_CODE_REQUIRED: 'recovery_code is required',
	PASSWORD_REQUIRED: 'password is required',
	CURRENT_PASSWORD_REQUIRED: 'current_password is required',
	NEW_RECOVERY_EMAIL_REQUIRED: 'new_recovery_email_address is required',

	// Where §7 is silent
	/** tdlib-mapping §3: with no password set, getRecoveryEmailAddress accepts any password. */
	NOT_ENABLED: '2-step verification is not enabled',
	/** recover_password: an omitted new password would remove the password (tdlib-mapping §8.7). */
	NEW_PASSWORD_REQUIRED: 'new_password is required',
	/** change_2fa_password with nothing to change. */
	NOTHING_TO_CHANGE: 'new_password or new_recovery_email_address is required',
	/** change_2fa_password never removes the password: disable_2fa_password is the deliberate way. */
	NEW_PASSWORD_EMPTY: 'new_password must not be empty; use disable_2fa_password to remove the password',
	/** TDLib changes a hint only together with a password (setPassword). */
	HINT_WITHOUT_PASSWORD: 'new_hint can only be changed together with new_password',
	EMAIL_FLAG_CONFLICT: 'set_recovery_email_address is false but new_recovery_email_address is given',
	RECOVERY_CODE_EMPTY: 'recovery_code must not be empty',
	NEW_RECOVERY_EMAIL_EMPTY: 'new_recovery_email_address must not be empty',
} as const
