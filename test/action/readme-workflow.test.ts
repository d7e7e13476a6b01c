import assert from 'node:assert/strict'
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { parse } from 'yaml'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.ts'
import { convyStep, docPage, readmeSection, yamlBlocks, type Workflow } from '../readme.ts'
import { describeStep, runActionStep } from './harness.ts'
import { expectExit, pullRequestStep, pushStep, sha } from './steps.ts'

// README's first workflow and README's convy.yml, played as written through the action bundle
// against the fake GitHub: the step's `with:` are the inputs, its `env:` the only variables (secrets
// stand in as values), and the service container on localhost:8080 is a fake of the support bot.

let fake: FakeGitHub
let bot: FakeAgentServer
before(async () => {
  fake = await startFakeGitHub()
  bot = await startFakeAgentServer({ token: 'value-of-BOT_TOKEN' })
})
after(async () => {
  await fake.close()
  await bot.close()
})

test("README's workflow with README's convy.yml: a push uploads the baseline, a pull request compares with it", async () => {
  const [workflowText] = yamlBlocks(readmeSection('In GitHub Actions')).filter((yaml) => /^jobs:/m.test(yaml))
  const [convyYml] = yamlBlocks(readmeSection('convy.yml', await docPage('configuration')))
  const step = convyStep(parse(workflowText!) as Workflow)
  // The service's port on the runner is the fake bot's port here.
  const onRunner = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.replaceAll('http://localhost:8080', bot.url)]))
  const inputs = onRunner(step.inputs)
  assert.equal(inputs['wait-for'], `${bot.url}/health`)

  const workspace = await mkdtemp(join(tmpdir(), 'convy-readme-workflow-'))
  await mkdir(join(workspace, 'scenarios'))
  await writeFile(join(workspace, 'convy.yml'), convyYml!)
  // Scripted and checked by convy-ci: the run needs the agent, not convy-ci's models.
  await writeFile(join(workspace, 'scenarios', 'order-status.yml'), "script: [where is my order?, \"it's 48213\"]\nchecks: [{contains: on its way}]\n")

  const push = pushStep(fake, workspace, inputs)
  const pushed = await runActionStep(fake, { ...push, env: onRunner(step.env) })
  expectExit(pushed, 0)
  fake.world.finishRun(push.run.id, 'success')
  assert.equal(pushed.outputs['pass-rate'], '1', describeStep(pushed))
  assert.deepEqual(fake.world.artifactsOf(push.run.id).map((a) => a.name).sort(), ['convy-support_bot', 'convy-support_bot+summary', 'convy-support_bot-report.html'])
  // wait-for asked the bot's health first; every turn carried the token from the workflow's secret.
  assert.equal(bot.requests[0]?.path, '/health')
  const turns = bot.requests.filter((r) => r.path === '/api/chat')
  // A push makes a baseline: it plays baseline-attempts (10 by default), never fewer than attempts.
  assert.equal(turns.length, 2 * Math.max(Number(inputs.attempts ?? 5), Number(inputs['baseline-attempts'] ?? 10)))
  assert.ok(turns.every((r) => r.headers.authorization === 'Bearer value-of-BOT_TOKEN'))

  const run = fake.world.startRun({ event: 'pull_request', headBranch: 'faster-replies', headSha: sha('c') })
  fake.world.pulls.set(7, { number: 7, headSha: run.headSha, headRef: run.headBranch, headRepository: fake.world.fullName, baseRef: 'main' })
  const pr = await runActionStep(fake, { ...pullRequestStep(fake, workspace, { number: 7, run, inputs }), env: onRunner(step.env) })
  expectExit(pr, 0)
  assert.equal(pr.outputs.verdict, 'within-noise', describeStep(pr))
  // The README's workflow sets no attempts: its pull requests play adaptive rounds, 3 attempts first.
  assert.match(pr.stdout, /support_bot: adaptive: 3 attempts per scenario, then up to 10 where the comparison with support_bot\/\S+ is undecided/, describeStep(pr))
  assert.ok(fake.world.checkRuns.some((c) => c.headSha === run.headSha && c.conclusion === 'success'), describeStep(pr))
})
