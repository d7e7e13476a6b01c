import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A test CA, a server certificate for 127.0.0.1 and localhost, and a client certificate, made with
 * openssl in a temporary folder (EC keys: fast to make). `dir` holds ca.crt, client.crt, client.key
 * and a second CA (other-ca.crt) that signed nothing here.
 */
export interface TestCertificates {
  dir: string
  caCert: Buffer
  serverCert: Buffer
  serverKey: Buffer
  clientCert: Buffer
  clientKey: Buffer
}

let made: TestCertificates | undefined

export function testCertificates(): TestCertificates {
  made ??= makeCertificates()
  return made
}

function makeCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'convy-tls-'))
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' })
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
  openssl('req', '-x509', ...key, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=convy test CA')
  openssl('req', '-x509', ...key, '-keyout', 'other-ca.key', '-out', 'other-ca.crt', '-days', '2', '-subj', '/CN=another CA')
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n')
  for (const [name, subject, extra] of [
    ['server', '/CN=localhost', ['-extfile', 'san.ext']],
    ['client', '/CN=convy-ci', []],
  ] as const) {
    openssl('req', ...key, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject)
    openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.crt`, '-days', '2', ...extra)
  }
  const read = (file: string) => readFileSync(join(dir, file))
  return { dir, caCert: read('ca.crt'), serverCert: read('server.crt'), serverKey: read('server.key'), clientCert: read('client.crt'), clientKey: read('client.key') }
}
