import { nkeys } from '@nats-io/transport-node'

type KeyPair = ReturnType<typeof nkeys.createUser>

/**
 * NATS's decentralized authentication for the creds test (`BUS_CREDS`): an operator, an account
 * with JetStream, and a user whose JWT carries a role's permissions, each JWT signed with its
 * issuer's nkey (ed25519), as `nsc` would make them; and the `.creds` file a process is given.
 */
function encode(kind: string, subject: string, issuer: KeyPair, nats: Record<string, unknown>, name: string) {
	const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url')
	const claims = {
		jti: Buffer.from(crypto.getRandomValues(new Uint8Array(16)))
			.toString('hex')
			.toUpperCase(),
		iat: Math.floor(Date.now() / 1000),
		iss: issuer.getPublicKey(),
		name,
		sub: subject,
		nats: { ...nats, type: kind, version: 2 },
	}
	const signed = `${b64({ typ: 'JWT', alg: 'ed25519-nkey' })}.${b64(claims)}`
	return `${signed}.${Buffer.from(issuer.sign(new TextEncoder().encode(signed))).toString('base64url')}`
}

export interface Operator {
	/** Lines of nats-server configuration: the operator, its account preloaded, JetStream on. */
	config(storeDir: string): string
	/** A `.creds` file's text for a new user with these permissions. */
	creds(permissions: { publish: string[]; subscribe: string[] }): string
}

export function makeOperator(): Operator {
	const operator = nkeys.createOperator()
	const account = nkeys.createAccount()
	const system = nkeys.createAccount()
	const operatorJwt = encode('operator', operator.getPublicKey(), operator, {}, 'ubg-test')
	const unlimited = {
		subs: -1,
		data: -1,
		payload: -1,
		imports: -1,
		exports: -1,
		wildcards: true,
		conn: -1,
		leaf: -1,
	}
	const accountJwt = encode(
		'account',
		account.getPublicKey(),
		operator,
		{ limits: { ...unlimited, mem_storage: -1, disk_storage: -1, streams: -1, consumer: -1 } },
		'UBG',
	)
	const systemJwt = encode('account', system.getPublicKey(), operator, { limits: unlimited }, 'SYS')
	return {
		config: (storeDir) =>
			[
				`operator: ${operatorJwt}`,
				`system_account: ${system.getPublicKey()}`,
				'resolver: MEMORY',
				`resolver_preload: { ${account.getPublicKey()}: ${accountJwt}, ${system.getPublicKey()}: ${systemJwt} }`,
				`jetstream { store_dir: ${JSON.stringify(storeDir)} }`,
			].join('\n'),
		creds(permissions) {
			const user = nkeys.createUser()
			const jwt = encode(
				'user',
				user.getPublicKey(),
				account,
				{
					pub: { allow: permissions.publish },
					sub: { allow: permissions.subscribe },
					subs: -1,
					data: -1,
					payload: -1,
				},
				'gateway',
			)
			const seed = new TextDecoder().decode(user.getSeed())
			return `-----BEGIN NATS USER JWT-----\n${jwt}\n------END NATS USER JWT------\n\n-----BEGIN USER NKEY SEED-----\n${seed}\n------END USER NKEY SEED------\n`
		},
	}
}
