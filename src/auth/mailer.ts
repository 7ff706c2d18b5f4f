import nodemailer from 'nodemailer'
import type { Config } from '../config'
import type { Logger } from '../logger'

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

export function createMailer(config: Config, log: Logger): Mailer {
	const transport = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : null
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
			await transport.sendMail({
				from: config.emailFrom,
				to: mail.to,
				subject: mail.subject,
				text: mail.text,
			})
		},
	}
}
