import type { AddressInfo } from 'node:net'
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/** A real SMTP server on 127.0.0.1 that keeps every delivered message's text, for the reset tests. */
export interface Inbox {
	url: string
	/** Resolves with the next message to `to` (already delivered or still to come). */
	next(to: string): Promise<{ subject: string; text: string }>
	close(): Promise<void>
}

export async function startInbox(): Promise<Inbox> {
	const delivered: Array<{ to: string; subject: string; text: string }> = []
	const waiting: Array<{ to: string; resolve: (m: { subject: string; text: string }) => void }> = []
	const server = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS', 'AUTH'],
		logger: false,
		onData(stream, session, callback) {
			simpleParser(stream)
				.then((mail) => {
					const message = { subject: mail.subject ?? '', text: mail.text ?? '' }
					for (const rcpt of session.envelope.rcptTo) {
						const i = waiting.findIndex((w) => w.to === rcpt.address)
						const w = i >= 0 ? waiting.splice(i, 1)[0] : undefined
						if (w) w.resolve(message)
						else delivered.push({ to: rcpt.address, ...message })
					}
					callback()
				})
				.catch((err: Error) => callback(err))
		},
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const { port } = server.server.address() as AddressInfo
	return {
		url: `smtp://127.0.0.1:${port}`,
		next(to) {
			const i = delivered.findIndex((m) => m.to === to)
			const found = i >= 0 ? delivered.splice(i, 1)[0] : undefined
			if (found) return Promise.resolve(found)
			return new Promise((resolve) => waiting.push({ to, resolve }))
		},
		close: () => new Promise((resolve) => server.close(() => resolve())),
	}
}

/** The reset link of a message: its address, and the fields its fragment carries. */
export function resetLinkOf(text: string): { url: URL; params: URLSearchParams } {
	const match = /https?:\/\/\S+\/reset-password[?#]\S+/.exec(text)
	if (!match) throw new Error('no reset link in the message')
	const url = new URL(match[0])
	return { url, params: new URLSearchParams(url.hash.slice(1)) }
}
