import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Certificates for the TLS tests, made at test time with `openssl` (Debian's) in a folder of the
 * test: a CA, the server's certificate for 127.0.0.1, and a client's, both signed by the CA.
 */
export interface TestCerts {
	ca: string
	serverCert: string
	serverKey: string
	clientCert: string
	clientKey: string
}

function openssl(args: string[], cwd: string) {
	const r = Bun.spawnSync(['openssl', ...args], { cwd, stdout: 'ignore', stderr: 'pipe' })
	if (r.exitCode !== 0) throw new Error(`openssl ${args[0]} failed: ${r.stderr.toString().trim()}`)
}

export function makeCerts(dir: string): TestCerts {
	const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
	openssl(
		['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=ubg-test-ca'],
		dir,
	)
	const sign = (name: string, ext: string) => {
		writeFileSync(join(dir, `${name}.ext`), ext)
		openssl(['req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`], dir)
		openssl(
			[
				'x509',
				'-req',
				'-in',
				`${name}.csr`,
				'-CA',
				'ca.pem',
				'-CAkey',
				'ca.key',
				'-CAcreateserial',
				'-out',
				`${name}.pem`,
				'-days',
				'1',
				'-extfile',
				`${name}.ext`,
			],
			dir,
		)
	}
	sign('server', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n')
	sign('client', 'extendedKeyUsage=clientAuth\n')
	return {
		ca: join(dir, 'ca.pem'),
		serverCert: join(dir, 'server.pem'),
		serverKey: join(dir, 'server.key'),
		clientCert: join(dir, 'client.pem'),
		clientKey: join(dir, 'client.key'),
	}
}
