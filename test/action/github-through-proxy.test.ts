import assert from 'node:assert/strict'
import { lookup } from 'node:dns/promises'
import { hostname } from 'node:os'
import { after, before, describe, test } from 'node:test'
import type { FakeGitHub } from '../fakes/github-server.ts'
import { fakeGitHubForSuite } from '../fakes/github-suite.ts'
import { startForwardProxy, type ForwardProxy } from '../fakes/forward-proxy.ts'
import { describeStep, exampleWorkspace, runActionStep, type ActionStepResult } from './harness.ts'
import { expectExit, pullRequestStep, pushStep, sha } from './steps.ts'

// The bundled action behind a company's proxy (docs/proxies.md): the REST client (octokit through
// @actions/github's fetch and undici's ProxyAgent), the artifact and cache clients (the results and
// cache services through @actions/http-client, the blobs through Azure's pipeline) all take
// HTTP_PROXY and HTTPS_PROXY, and NO_PROXY exempts a host. The fake GitHub is addressed as
// github.test, a name only the proxy resolves (to 127.0.0.1): the toolkit never sends a loopback
// address through a proxy, and a request that went around the proxy could not find the host. The
// bundle carries one undici for all of them (package.json's overrides): this guards that they still
// reach GitHub with it.

// Few attempts of two scenarios: what is tested is how each request travels, not the verdict (too
// little to tell: a neutral check, exit 0).
const INPUTS = { agent: 'support_bot', attempts: '3', scenarios: 'off-topic,order-status', comment: 'always' }
const PROXY_AUTH = `Basic ${Buffer.from('corp:pr0xy-pass').toString('base64')}`

/** `METHOD http://host:port/path?query` of every request the fake GitHub answered. */
const requestsOf = (fake: FakeGitHub, from = 0) => fake.received.slice(from).map((r) => `${r.method} ${r.url}`)

describe('the action behind HTTP_PROXY and HTTPS_PROXY reaches GitHub only through the proxy', () => {
  let fake: FakeGitHub
  let proxy: ForwardProxy
  let push: ActionStepResult
  let pr: ActionStepResult
  let pushRunId = 0
  let prRunId = 0
  /** What the proxy logged and the fake received during each step. */
  const seen = { push: { log: [] as string[], received: [] as string[] }, pr: { log: [] as string[], received: [] as string[] } }

  fakeGitHubForSuite(() => fake, (started) => (fake = started), { host: 'github.test' })
  before(async () => {
    proxy = await startForwardProxy({ hosts: { 'github.test': '127.0.0.1' }, requireAuth: PROXY_AUTH })
    const proxyUrl = proxy.url.replace('http://', 'http://corp:pr0xy-pass@')
    const env = { HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl }
    const workspace = await exampleWorkspace()

    // A push makes the baseline: its artifacts uploaded, the cache saved.
    const pushed = pushStep(fake, workspace, INPUTS)
    pushRunId = pushed.run.id
    push = await runActionStep(fake, { ...pushed, env })
    fake.world.finishRun(pushed.run.id, 'success')
    seen.push = { log: proxy.log.splice(0), received: requestsOf(fake) }

    // A pull request finds it and downloads it, restores the cache, comments, checks and uploads.
    const receivedBefore = fake.received.length
    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'topic', headSha: sha('b') })
    prRunId = run.id
    fake.world.pulls.set(12, { number: 12, headSha: run.headSha, headRef: 'topic', headRepository: fake.world.fullName, baseRef: 'main' })
    pr = await runActionStep(fake, pullRequestStep(fake, workspace, { number: 12, run, inputs: INPUTS }, { env }))
    seen.pr = { log: proxy.log.splice(0), received: requestsOf(fake, receivedBefore) }
  })
  after(async () => {
    await proxy?.close()
  })

  const carried = (log: string[]) => log.filter((line) => !line.startsWith('CONNECT '))
  const api = () => new URL(fake.url).host

  test('both steps did their work: artifacts uploaded, the baseline found, a comment and a check on the pull request', () => {
    expectExit(push, 0)
    expectExit(pr, 0)
    assert.deepEqual(fake.world.artifactsOf(pushRunId).map((a) => a.name).sort(), ['convy-support_bot', 'convy-support_bot+summary', 'convy-support_bot-report.html'])
    assert.deepEqual(fake.world.artifactsOf(prRunId).map((a) => a.name).sort(), ['convy-support_bot', 'convy-support_bot+summary', 'convy-support_bot-report.html'])
    assert.notEqual(pr.outputs.verdict, 'no-baseline', describeStep(pr))
    assert.equal(fake.world.commentsOn(12).length, 1)
    assert.equal(fake.world.checkRuns.filter((c) => c.headSha === sha('b')).length, 1)
    assert.deepEqual(pr.annotations.filter((a) => a.level === 'warning'), [], describeStep(pr))
  })

  test('every request GitHub received was carried by the proxy, with the proxy credentials', () => {
    for (const step of [seen.push, seen.pr]) {
      assert.ok(step.received.length > 0)
      assert.deepEqual(carried(step.log).sort(), [...step.received].sort())
    }
    assert.ok(proxy.authorizations.length > 0)
    assert.deepEqual(new Set(proxy.authorizations), new Set([PROXY_AUTH]))
  })

  test('the proxy log shows the REST calls, the results and cache services and the blobs, in tunnels it was asked to open', () => {
    const base = `http://${api()}`
    const repo = `${base}/repos/${fake.world.fullName}`
    const has = (log: string[], pattern: RegExp, what: string) => assert.ok(log.some((line) => pattern.test(line)), `${what}: ${log.join('\n')}`)
    const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    for (const log of [seen.push.log, seen.pr.log]) {
      // undici's ProxyAgent (octokit) and the toolkit's tunnel agents open tunnels to http:// hosts too.
      has(log, new RegExp(`^CONNECT ${escaped(api())}$`), 'a tunnel to GitHub')
      has(log, new RegExp(`^POST ${escaped(base)}/twirp/github\\.actions\\.results\\.api\\.v1\\.ArtifactService/CreateArtifact$`), 'the results service')
      has(log, new RegExp(`^POST ${escaped(base)}/twirp/github\\.actions\\.results\\.api\\.v1\\.ArtifactService/FinalizeArtifact$`), 'the results service')
      has(log, new RegExp(`^PUT ${escaped(base)}/devstoreaccount1/artifacts/`), 'a blob upload')
      has(log, new RegExp(`^POST ${escaped(base)}/twirp/github\\.actions\\.results\\.api\\.v1\\.CacheService/`), 'the cache service')
      assert.equal(log.filter((line) => !line.startsWith('CONNECT ') && !line.includes(` ${base}/`)).length, 0, log.join('\n'))
    }
    // The pull request's REST calls, through octokit: the baseline's run and artifact, the comment, the check.
    has(seen.pr.log, new RegExp(`^GET ${escaped(repo)}/actions/runs/${pushRunId}/artifacts`), 'the baseline run artifacts (REST)')
    has(seen.pr.log, new RegExp(`^POST ${escaped(repo)}/issues/12/comments$`), 'the comment (REST)')
    has(seen.pr.log, new RegExp(`^POST ${escaped(repo)}/check-runs$`), 'the check run (REST)')
    has(seen.pr.log, new RegExp(`^GET ${escaped(base)}/devstoreaccount1/artifacts/`), 'the baseline blob download')
  })
})

// A name of this machine that is not a loopback name (those never go through a proxy) but resolves to
// it, so the fake GitHub can be reached without the proxy under a name the proxy rules apply to.
const machine = hostname()
const resolved = await lookup(machine).catch(() => undefined)
const direct = resolved?.address.startsWith('127.') ? machine : undefined

describe('the action with GitHub in NO_PROXY goes straight to it', { skip: direct ? false : `${machine} does not resolve to a loopback address here` }, () => {
  let fake: FakeGitHub
  let proxy: ForwardProxy
  let pr: ActionStepResult
  let prRunId = 0

  fakeGitHubForSuite(() => fake, (started) => (fake = started), { host: direct })
  before(async () => {
    proxy = await startForwardProxy()
    const workspace = await exampleWorkspace()
    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'topic', headSha: sha('c') })
    prRunId = run.id
    fake.world.pulls.set(13, { number: 13, headSha: run.headSha, headRef: 'topic', headRepository: fake.world.fullName, baseRef: 'main' })
    const env = { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: `other.example,${direct}` }
    pr = await runActionStep(fake, pullRequestStep(fake, workspace, { number: 13, run, inputs: INPUTS }, { env }))
  })
  after(async () => {
    await proxy?.close()
  })

  test('the comment, the check and the artifacts reach GitHub, and the proxy sees nothing', () => {
    expectExit(pr, 0)
    assert.equal(fake.world.commentsOn(13).length, 1)
    assert.equal(fake.world.checkRuns.filter((c) => c.headSha === sha('c')).length, 1)
    assert.deepEqual(fake.world.artifactsOf(prRunId).map((a) => a.name).sort(), ['convy-support_bot', 'convy-support_bot+summary', 'convy-support_bot-report.html'])
    const kinds = new Set(fake.calls.map((c) => c.kind))
    assert.deepEqual([...kinds].sort(), ['blob', 'rest', 'twirp'])
    assert.deepEqual(proxy.log, [])
  })
})
