import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createMask } from '../../src/base/shared/secrets.ts'
import { endpointIdentity, secretPartsOf } from '../../src/base/shared/url-secrets.ts'

test('an address keeps its scheme, host, port and path visible; its user, password, every query value and fragment are masked', () => {
  const url = 'https://botuser:pa55w0rd@gateway.example:8443/v1/chat?key=s3cr3tKey&mode=fast#t0kenFrag'
  const mask = createMask(secretPartsOf(url))
  assert.equal(mask(`POST ${url} answered HTTP 404`), 'POST https://***:***@gateway.example:8443/v1/chat?key=***&mode=***#*** answered HTTP 404')
  assert.deepEqual(secretPartsOf('http://127.0.0.1:1/v1'), [])
  assert.deepEqual(secretPartsOf('sk-not-an-address'), ['sk-not-an-address'])
  assert.deepEqual(secretPartsOf('ftp://user:pw@host/'), ['ftp://user:pw@host/'])
})

test("a judge's endpoint identity is host, port and path: no scheme, credentials, query or fragment, so run.json never holds a secret", () => {
  const url = 'https://botuser:pa55w0rd@Gateway.example:8443/v1/?key=s3cr3tKey#t0kenFrag'
  assert.equal(endpointIdentity(url), 'gateway.example:8443/v1')
  for (const secret of ['botuser', 'pa55w0rd', 's3cr3tKey', 't0kenFrag']) assert.ok(!endpointIdentity(url).includes(secret))
  // Unset: the models' client calls OpenAI's API.
  assert.equal(endpointIdentity(undefined), 'api.openai.com/v1')
  assert.equal(endpointIdentity('https://api.openai.com/v1/'), endpointIdentity(null))
  assert.equal(endpointIdentity('sk-not-an-address'), 'not an address')
  assert.notEqual(endpointIdentity('https://lenient.example/v1'), endpointIdentity('https://api.openai.com/v1'))
})
