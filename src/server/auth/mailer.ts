import type { Logger } from '../../common/util/logger'

/**
 * Outgoing email over SMTP (`SMTP_URL`). Without it the message is written to the log at info
 * level, under `mail` (a field name the logger does not redact), so a self-hoster can still reset.
 */
export interface Mail {
	to: string
	subject: string
	text: string
}

export interface Mailer {
	send(mail: Mail): Promise<void>
}

/** Where mail goes: the accounts plugin's SMTP_URL and EMAIL_FROM (plugins/accounts/settings.ts). */
export interface MailSettings {
	smtpUrl?: string
	emailFrom: string
}

export function createMailer(settings: MailSettings, log: Logger): Mailer {
	// Loaded only with SMTP_URL: the edge entry (src/platform/edge/main.ts) has no TCP client and never loads it.
	const smtpUrl = settings.smtpUrl
	let transport: Promise<import('nodemailer').Transporter> | null = null
	if (smtpUrl) {
		transport = import('nodemailer').then((m) => m.default.createTransport(smtpUrl))
		// A transport that cannot be made fails each send, where it is answered; never unhandled.
		transport.catch(() => {})
	}
	return {
		async send(mail) {
			if (!transport) {
				log.info('email not sent (SMTP_URL is not set)', {
					to: mail.to,
					subject: mail.subject,
					mail: mail.text,
				})
				return
			}
			await (await transport).sendMail({
				from: settings.emailFrom,
				to: mail.to,
				subject: mail.subject,
				text: mail.text,
			})
		},
	}
}
