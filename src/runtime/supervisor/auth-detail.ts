/** Non-secret fields of an authorization state worth showing to the HTTP side. */
export function authorizationDetail(state: Record<string, unknown>): Record<string, unknown> | undefined {
	switch (state._) {
		case 'authorizationStateWaitOtherDeviceConfirmation':
			return { link: state.link }
		case 'authorizationStateWaitPassword':
			return {
				password_hint: state.password_hint,
				has_recovery_email_address: state.has_recovery_email_address,
			}
		case 'authorizationStateWaitCode': {
			const info = state.code_info as
				| { phone_number?: string; type?: { _: string; length?: number } }
				| undefined
			return { code_type: info?.type?._, code_length: info?.type?.length, phone_number: info?.phone_number }
		}
		case 'authorizationStateWaitEmailCode':
		case 'authorizationStateWaitEmailAddress':
			return {}
		default:
			return undefined
	}
}
