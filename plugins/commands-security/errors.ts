/**
 * The security group's wire strings. The first block is docs/protocol.md#error-strings word for word; the
 * second fills the gaps that table leaves, where docs/tdlib-mapping.md#security-and-two-step-verification
 * calls the protocol dangerous (an omitted `new_password` that TDLib reads as "remove the password") or
 * leaky (verify_2fa_password), and for the two commands that finish a pending recovery address change.
 */
export const ACCOUNT_TTL_MIN_DAYS = 30
export const ACCOUNT_TTL_MAX_DAYS = 730

export const SecurityErrors = {
	// docs/protocol.md#error-strings
	DAYS_REQUIRED: 'days is required',
	DAYS_OUT_OF_RANGE: `days must be between ${ACCOUNT_TTL_MIN_DAYS} and ${ACCOUNT_TTL_MAX_DAYS}`,
	RECOVERY_CODE_REQUIRED: 'recovery_code is required',
	PASSWORD_REQUIRED: 'password is required',
	CURRENT_PASSWORD_REQUIRED: 'current_password is required',
	NEW_RECOVERY_EMAIL_REQUIRED: 'new_recovery_email_address is required',

	// Where the protocol's error table is silent
	/**
	 * docs/tdlib-mapping.md#security-and-two-step-verification: with no password set, getRecoveryEmailAddress
	 * accepts any password.
	 */
	NOT_ENABLED: '2-step verification is not enabled',
	/**
	 * change_2fa_password with nothing to change (the address counts only with the flag,
	 * docs/commands.md#change_2fa_password).
	 */
	NOTHING_TO_CHANGE: 'new_password or set_recovery_email_address is required',
	/** change_2fa_password never removes the password: disable_2fa_password is the deliberate way. */
	NEW_PASSWORD_EMPTY: 'new_password must not be empty; use disable_2fa_password to remove the password',
	/** TDLib changes a hint only together with a password (setPassword). */
	HINT_WITHOUT_PASSWORD: 'new_hint can only be changed together with new_password',
	/** check_recovery_email_address_code */
	CODE_REQUIRED: 'code is required',
	/** check_/resend_recovery_email_address_code with no change waiting for a code. */
	NOTHING_PENDING: 'no recovery email address is waiting for confirmation',
	/** TDLib answers a wrong or expired code with the state, still pending: said, not passed as success. */
	CODE_NOT_ACCEPTED:
		'code is invalid or expired; the recovery email address is still waiting for confirmation',
} as const
