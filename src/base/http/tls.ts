import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import type { ConnectionOptions } from 'node:tls'
import { errorMessage, InputError } from '../shared/errors.ts'

// node:tls and node:crypto (about 10 ms to load) only for an agent that has `tls:`: every run
// prepares its agents before the first request (bench/runner.ts).
const loadBuiltin = createRequire(import.meta.url)

/**
 * An agent's `tls:` in convy.yml: a private CA to trust (a corporate one, a test one) and a client
 * certificate with its key, as PEM files relative to convy.yml. Everything is read and checked when
 * the agent is prepared, so a wrong path or a key that does not match its certificate stops convy-ci
 * before anything runs (exit 2), not on the first turn of every attempt.
 */
export interface TlsFiles {
  ca?: string
  cert?: string
  key?: string
}

/** `where` names the setting in messages: `agent "support_bot"`. */
export function readTlsFiles(files: TlsFiles, projectDir: string, where: string): ConnectionOptions {
  const read = (name: keyof TlsFiles): Buffer | undefined => {
    const path = files[name]
    if (path === undefined) return undefined
    const full = resolve(projectDir, path)
    try {
      return readFileSync(full)
    } catch (error) {
      const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : errorMessage(error)
      throw new InputError(`${where}: tls.${name}: ${why} (${full})`, { cause: error })
    }
  }
  const options: ConnectionOptions = { ca: read('ca'), cert: read('cert'), key: read('key') }
  const { createSecureContext } = loadBuiltin('node:tls') as typeof import('node:tls')
  for (const name of ['ca', 'cert'] as const) {
    const pem = options[name] as Buffer | undefined
    // A secure context quietly skips a CA file that holds no certificate; say so instead.
    if (pem !== undefined && !isCertificate(pem)) throw new InputError(`${where}: tls.${name}: ${files[name]} holds no PEM certificate`)
  }
  try {
    // Parses every PEM and checks that the key belongs to the certificate: the errors a handshake
    // would otherwise report later, and less clearly.
    createSecureContext(options)
  } catch (error) {
    throw new InputError(`${where}: tls: ${errorMessage(error)} (ca: ${files.ca ?? '–'}, cert: ${files.cert ?? '–'}, key: ${files.key ?? '–'})`, { cause: error })
  }
  return options
}

function isCertificate(pem: Buffer): boolean {
  const { X509Certificate } = loadBuiltin('node:crypto') as typeof import('node:crypto')
  try {
    new X509Certificate(pem)
    return true
  } catch {
    return false
  }
}
