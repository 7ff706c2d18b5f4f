/** td_invoke's wire strings (docs/protocol.md#error-strings); the validator's name the field's path. */
export const TdInvokeErrors = {
	DISABLED: 'td_invoke is disabled',
	REQUEST_REQUIRED: 'request is required',
	REQUEST_TYPE: 'request must be a TDLib object with an @type',
	UNKNOWN_METHOD: 'request: unknown TDLib method',
	DENIED: 'method denied',
	NOT_ALLOWED: 'method not allowed',
	UPLOAD_NOT_FOUND: 'request: uploaded file not found',
} as const
