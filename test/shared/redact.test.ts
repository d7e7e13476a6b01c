import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { loadProjectConfig } from '../../src/records/config/load-config.ts'
import { createMask, MASKED, maskDeep } from '../../src/base/shared/secrets.ts'
import { ExitCode, toConvyError } from '../../src/base/shared/errors.ts'
import { makeProject } from '../support/project.ts'

const CARD = String.raw`\b\d{4}(?:[ -]?\d{4}){3}\b`
const EMAIL = String.raw`[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}`

async function redactionOf(yml: string) {
  const dir = await makeProject({ 'convy.yml': yml })
  return (await loadProjectConfig(join(dir, 'convy.yml'))).redact
}

test('redact: patterns mask every match, beside the secrets, as written and as a reader sees it', async () => {
  const redact = await redactionOf(`redact:\n  - '${CARD}'\n  - '${EMAIL}'\n`)
  assert.ok(redact)
  const mask = createMask(['Cn4ry-s3cret&key'], redact)
  assert.equal(mask('card 4111 1111 1111 1111, mail Ann@Example.com, key Cn4ry-s3cret&key.'), `card ${MASKED}, mail ${MASKED}, key ${MASKED}.`)
  // Split by a character that shows as nothing, or percent-encoded: still what a reader sees.
  assert.equal(mask('card 4111\u200B1111\u20601111 1111 ok'), `card ${MASKED} ok`)
  assert.equal(mask('mailto:ann%40example.com'), `mailto:${MASKED}`)
  // A card echoed as a JSON number in tool arguments is masked as what it prints as.
  const masked = maskDeep({ arguments: { card: 4111111111111111, qty: 2 } }, mask)
  assert.deepEqual(masked, { arguments: { card: MASKED, qty: 2 } })
  // With no secret at all, the patterns alone.
  assert.equal(createMask([], redact)('to bob@example.org'), `to ${MASKED}`)
  assert.equal(createMask([], redact)('nothing to hide'), 'nothing to hide')
})

test('a bad redact: pattern is exit 2 naming convy.yml and its line, before anything runs', async () => {
  const yml = `models:\n  judge: j\nredact:\n  - '${EMAIL}'\n  - '(?<=card )\\d+'\n  - 'x*'\n`
  const error = toConvyError(await redactionOf(yml).then(() => null, (e: unknown) => e))
  assert.equal(error.exitCode, ExitCode.BadInput)
  assert.match(error.message, /convy\.yml:5: redact\[1\]: .*lookaround/)
  assert.match(error.message, /convy\.yml:6: redact\[2\]: `x\*` matches the empty text/)
  const notList = toConvyError(await redactionOf(`redact: '${EMAIL}'\n`).then(() => null, (e: unknown) => e))
  assert.match(notList.message, /convy\.yml:1: redact: is a list of patterns/)
})

test('a pattern runs in linear time: a catastrophic backtracking pattern over 1 MB does not hang', async () => {
  const redact = await redactionOf(`redact:\n  - '(a+)+b'\n`)
  const mask = createMask([], redact)
  const text = `${'a'.repeat(1_000_000)}c`
  assert.equal(mask(text), text)
})
