import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readFile, readdir } from 'node:fs/promises'
import { createServer as createHttpsServer } from 'node:https'
import { lookup } from 'node:dns/promises'
import { hostname } from 'node:os'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { createFetch } from '../../src/base/http/fetch.ts'
import { proxyFor, proxyRulesFrom, proxySecrets } from '../../src/base/http/proxy.ts'
import { judgeByRule, scriptedUser, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { testCertificates } from '../fakes/certificates.ts'
import { startForwardProxy, type ForwardProxy } from '../fakes/forward-proxy.ts'
import { makeProject, runInProcess } from '../cli/harness.ts'

// Proxies as GitHub's toolkit applies them (@actions/http-client's getProxyUrl and checkBypass),
// through a real forwarding proxy on 127.0.0.1. Servers are named agent.test, models.test and
// secure.test, which the proxy looks up as 127.0.0.1: loopback names never go through a proxy.

const proxyOf = (target: string, env: Record<string, string>, setting?: string) => proxyFor(new URL(target), setting, proxyRulesFrom(env))?.href

describe('which proxy a request takes', () => {
  test('https through https_proxy, else HTTPS_PROXY; http through http_proxy, else HTTP_PROXY; an empty value is unset', () => {
    const env = { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:2', HTTP_PROXY: 'http://plain:3' }
    assert.equal(proxyOf('https://api.example.com/v1', env), 'http://lower:1/')
    assert.equal(proxyOf('https://api.example.com/v1', { ...env, https_proxy: '' }), 'http://upper:2/')
    assert.equal(proxyOf('http://bot.example.com/', env), 'http://plain:3/')
    assert.equal(proxyOf('http://bot.example.com/', { HTTPS_PROXY: 'http://upper:2' }), undefined)
    assert.equal(proxyOf('http://bot.example.com/', { HTTP_PROXY: 'proxy.corp:3128' }), 'http://proxy.corp:3128/')
    // undici's EnvHttpProxyAgent: without an https proxy, https goes through the http one.
    assert.equal(proxyOf('https://api.example.com/v1', { HTTP_PROXY: 'http://plain:3' }), 'http://plain:3/')
  })

  test('NO_PROXY (no_proxy first) exempts hosts, host:port, subdomains and .suffixes; loopback is never proxied', () => {
    const env = { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1', NO_PROXY: 'internal.corp, bot.example.com:8080,.lan' }
    assert.equal(proxyOf('https://internal.corp/', env), undefined)
    assert.equal(proxyOf('https://api.INTERNAL.corp/', env), undefined)
    assert.equal(proxyOf('http://bot.example.com:8080/', env), undefined)
    assert.equal(proxyOf('http://bot.example.com:9090/', env), 'http://p:1/')
    assert.equal(proxyOf('http://printer.lan/', env), undefined)
    assert.equal(proxyOf('http://lan/', env), undefined, 'as undici reads it, .lan covers lan itself')
    assert.equal(proxyOf('https://api.openai.com/', { ...env, NO_PROXY: 'internal.corp api.openai.com' }), undefined, 'spaces separate too')
    assert.equal(proxyOf('https://api.openai.com/', env), 'http://p:1/')
    assert.equal(proxyOf('https://api.openai.com/', { ...env, no_proxy: '*' }), undefined)
    assert.equal(proxyOf('https://api.openai.com/', { ...env, no_proxy: 'openai.com', NO_PROXY: '' }), undefined)
    for (const loopback of ['http://localhost:8080/', 'http://127.0.0.1:8080/', 'http://[::1]:8080/']) assert.equal(proxyOf(loopback, env), undefined)
  })

  test('proxy: in convy.yml wins over the environment; none goes straight to the server', () => {
    const env = { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'internal.corp' }
    assert.equal(proxyOf('https://internal.corp/', env, 'http://team-proxy:8080'), 'http://team-proxy:8080/')
    assert.equal(proxyOf('https://api.openai.com/', env, 'none'), undefined)
  })

  test('a value that is no proxy address is an input error naming the variable, its password hidden', () => {
    assert.throws(() => proxyRulesFrom({ HTTPS_PROXY: 'socks5://user:s3cret-pw@proxy:1080' }), (error: Error & { exitCode?: number }) => {
      assert.equal(error.exitCode, 2)
      assert.match(error.message, /^HTTPS_PROXY: "socks5:\/\/user:\*\*\*@proxy:1080" is not a proxy address/)
      assert.doesNotMatch(error.message, /s3cret/)
      return true
    })
    assert.deepEqual(proxySecrets({ HTTP_PROXY: 'http://me:p%40ss-word@proxy:3128' }, 'http://team:other-secret@p:1'), ['p%40ss-word', 'p@ss-word', 'other-secret', 'other-secret'])
  })
})

describe('through a real forwarding proxy', () => {
  let proxy: ForwardProxy
  let plain: FakeAgentServer
  let secureUrl = ''
  const secure = (() => {
    // A certificate for secure.test, from the test CA: the name the tunnel's TLS checks.
    const certs = testCertificates()
    const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: certs.dir, stdio: 'pipe' })
    openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'secure.key', '-out', 'secure.csr', '-subj', '/CN=secure.test')
    execFileSync('sh', ['-c', 'printf "subjectAltName=DNS:secure.test\\n" > secure.ext'], { cwd: certs.dir })
    openssl('x509', '-req', '-in', 'secure.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'secure.crt', '-days', '2', '-extfile', 'secure.ext')
    return createHttpsServer({ cert: execFileSync('cat', [join(certs.dir, 'secure.crt')]), key: execFileSync('cat', [join(certs.dir, 'secure.key')]) }, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url, secure: true }))
    })
  })()

  before(async () => {
    plain = await startFakeAgentServer()
    await new Promise<void>((done) => secure.listen(0, '127.0.0.1', done))
    secureUrl = `https://secure.test:${(secure.address() as AddressInfo).port}`
    proxy = await startForwardProxy({ hosts: { 'agent.test': '127.0.0.1', 'secure.test': '127.0.0.1' }, requireAuth: `Basic ${Buffer.from('me:p@ss').toString('base64')}` })
  })
  after(async () => {
    await proxy.close()
    await plain.close()
    secure.closeAllConnections()
    await new Promise((done) => secure.close(done))
  })

  const withAuth = () => proxy.url.replace('http://', 'http://me:p%40ss@')

  test('an http server is asked through the proxy, which sees every request; credentials go as Proxy-Authorization', async () => {
    proxy.log.length = 0
    const fetch = createFetch({ proxyRules: proxyRulesFrom({ HTTP_PROXY: withAuth() }) })
    const target = `${plain.url.replace('127.0.0.1', 'agent.test')}/api/chat`
    for (const text of ['one', 'two']) {
      const answer = await fetch.whole(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session_id: 's', message: text }) })
      assert.equal(answer.status, 200, answer.text)
    }
    // A Request (or a streamed body) is no exception: it goes through the same dispatcher.
    const asked = await fetch(new Request(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session_id: 's', message: 'three' }) }))
    assert.equal(asked.status, 200)
    assert.deepEqual(proxy.log, [`POST ${target}`, `POST ${target}`, `POST ${target}`])
  })

  test('an https server is reached through a CONNECT tunnel, its certificate checked against the CA given', async () => {
    proxy.log.length = 0
    const fetch = createFetch({ proxyRules: proxyRulesFrom({ https_proxy: withAuth() }), tls: { ca: testCertificates().caCert } })
    const answer = await fetch.whole(`${secureUrl}/hello`, { method: 'GET', headers: {} })
    assert.deepEqual(JSON.parse(answer.text), { path: '/hello', secure: true })
    assert.deepEqual(proxy.log, [`CONNECT ${new URL(secureUrl).host}`])
    const sdkAnswer = await fetch(`${secureUrl}/sdk`)
    assert.deepEqual(await sdkAnswer.json(), { path: '/sdk', secure: true })
  })

  test('a host in NO_PROXY is asked directly: the proxy sees nothing', async () => {
    proxy.log.length = 0
    const fetch = createFetch({ proxyRules: proxyRulesFrom({ HTTPS_PROXY: withAuth(), NO_PROXY: 'secure.test' }), tls: { ca: testCertificates().caCert } })
    // secure.test resolves nowhere but at the proxy: asked directly, it cannot be found.
    await assert.rejects(fetch.whole(`${secureUrl}/`, { method: 'GET', headers: {} }), (error: Error & { code?: string; cause?: { code?: string } }) => (error.code ?? error.cause?.code) === 'ENOTFOUND')
    assert.deepEqual(proxy.log, [])
  })
})

describe('convy-ci run behind HTTPS_PROXY and HTTP_PROXY', () => {
  let proxy: ForwardProxy
  let models: FakeModelServer
  let bot: FakeAgentServer
  const SECRET = 'pr0xy-pass-word'
  before(async () => {
    models = await startFakeModelServer({ user: scriptedUser(['hi', 'bye ###STOP###']), judge: judgeByRule(() => true) })
    bot = await startFakeAgentServer()
    proxy = await startForwardProxy({ hosts: { 'models.test': '127.0.0.1', 'agent.test': '127.0.0.1' }, requireAuth: `Basic ${Buffer.from(`corp:${SECRET}`).toString('base64')}` })
  })
  after(async () => {
    await proxy.close()
    await models.close()
    await bot.close()
  })

  const project = (agentUrl: string) =>
    makeProject({
      'convy.yml': `models:\n  base_url: ${models.url.replace('127.0.0.1', 'models.test')}\n  api_key: key-1234\n  user: u\n  judge: j\nagents:\n  bot:\n    url: ${agentUrl}/api/chat\n    body: { session_id: "{session}", message: "{text}" }\n    reply: data.answer\n`,
      'scenarios/a.yml': 'user: Say hi.\njudge: [The agent answers]\n',
      'scenarios/b.yml': 'user: Say hi again.\njudge: [The agent answers]\n',
    })

  test('the proxy carries every agent and model request, and its password is written nowhere', async () => {
    proxy.log.length = 0
    models.reset()
    const before = bot.requests.length
    const dir = await project(bot.url.replace('127.0.0.1', 'agent.test'))
    const proxyUrl = proxy.url.replace('http://', `http://corp:${SECRET}@`)
    const result = await runInProcess(['run', 'bot', '-k', '2', '--parallel', '2'], { cwd: dir, env: { HTTPS_PROXY: proxyUrl, HTTP_PROXY: proxyUrl } })
    assert.equal(result.code, 0, result.stderr)
    const agentRequests = bot.requests.length - before
    assert.equal(agentRequests, 4 * 2)
    assert.equal(proxy.log.filter((line) => line.includes('agent.test')).length, agentRequests)
    assert.equal(proxy.log.filter((line) => line.includes('models.test')).length, models.requests.length)
    assert.ok(models.requests.length >= 1 + 4 * 3, `${models.requests.length} model requests`)
    assert.ok(proxy.log.some((line) => line.startsWith('GET http://models.test') && line.endsWith('/v1/models')), 'the gateway check went through the proxy')
    const written = await allText(join(dir, 'results'))
    assert.doesNotMatch(written + result.stdout + result.stderr, new RegExp(SECRET))
  })

  test('with the agent in NO_PROXY, only the models go through the proxy', async (t) => {
    // A name of this machine that is not a loopback name (those are never proxied) but resolves to it.
    const name = hostname()
    const address = await lookup(name).catch(() => undefined)
    if (!address?.address.startsWith('127.')) return t.skip(`${name} does not resolve to a loopback address here`)
    proxy.log.length = 0
    models.reset()
    const before = bot.requests.length
    const dir = await project(bot.url.replace('127.0.0.1', name))
    const proxyUrl = proxy.url.replace('http://', `http://corp:${SECRET}@`)
    const result = await runInProcess(['run', 'bot', '-k', '1'], { cwd: dir, env: { http_proxy: proxyUrl, no_proxy: name } })
    assert.equal(result.code, 0, result.stderr)
    assert.equal(bot.requests.length - before, 2 * 2)
    assert.equal(proxy.log.filter((line) => line.includes(name)).length, 0)
    assert.equal(proxy.log.length, models.requests.length)
  })

  test('a proxy variable that is no address stops the run before anything is sent (exit 2)', async () => {
    proxy.log.length = 0
    const dir = await project(bot.url.replace('127.0.0.1', 'agent.test'))
    const result = await runInProcess(['run', 'bot'], { cwd: dir, env: { HTTP_PROXY: `ftp://corp:${SECRET}@proxy` } })
    assert.equal(result.code, 2)
    assert.match(result.stderr, /HTTP_PROXY: "ftp:\/\/corp:\*\*\*@proxy\/?" is not a proxy address/)
    assert.doesNotMatch(result.stderr, new RegExp(SECRET))
    assert.deepEqual(proxy.log, [])
  })
})

async function allText(dir: string): Promise<string> {
  let text = ''
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) text += await readFile(join(entry.parentPath, entry.name), 'utf8')
  }
  return text
}
