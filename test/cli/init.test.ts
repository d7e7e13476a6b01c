import assert from 'node:assert/strict'
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import { runInProcess } from './harness.ts'

test('init makes a project that runs offline at once: --smoke and the scripted scenario', async () => {
  const cwd = await mkdtemp(join(tmpdir(), 'convy-init-'))
  const made = await runInProcess(['init', 'my-bench'], { cwd })
  assert.equal(made.code, 0, made.stderr)
  assert.match(made.stdout, /cd my-bench/)
  const project = join(cwd, 'my-bench')
  // --help promises results/: it is made, and listed.
  assert.match(made.stdout, /^ {2}results\/ /m)
  assert.deepEqual(await readdir(join(project, 'results')), [])
  for (const file of ['convy.yml', '.env.example', 'agents/bookshop.ts', 'scenarios/order-status-scripted.yml']) {
    assert.ok((await readFile(join(project, file), 'utf8')).length > 0, file)
  }

  const smoke = await runInProcess(['run', 'bookshop', '--smoke'], { cwd: project })
  assert.equal(smoke.code, 0, smoke.stderr)
  const offline = await runInProcess(['run', 'bookshop', '--scenarios', 'order-status-scripted', '--results', 'offline-results'], { cwd: project })
  assert.equal(offline.code, 0, offline.stderr)
  const [runName] = await readdir(join(project, 'offline-results', 'bookshop'))
  const attempts = await readAllAttempts(join(project, 'offline-results', 'bookshop', runName!))
  assert.deepEqual(attempts.map((a) => [a.scenario, a.verdict, a.checks.length]), [['order-status-scripted', 'passed', 3]])
  assert.match(offline.stdout, /bookshop: pass rate 100% · 1 of 1/)

  // The model scenarios need the gateway's key, and name the variable the openai SDK reads.
  const online = await runInProcess(['run', 'bookshop'], { cwd: project })
  assert.equal(online.code, 2)
  assert.match(online.stderr, /convy\.yml:\d+: the models need a key: set OPENAI_API_KEY \(in the environment or \.env\), or models\.api_key/)
  assert.match(await readFile(join(project, '.env.example'), 'utf8'), /^OPENAI_API_KEY=$/m)
})

test('init never overwrites: an existing file stops it before anything is written', async () => {
  const cwd = await mkdtemp(join(tmpdir(), 'convy-init-'))
  await writeFile(join(cwd, 'convy.yml'), 'agents: {}\n')
  const result = await runInProcess(['init'], { cwd })
  assert.equal(result.code, 2)
  assert.match(result.stderr, /already has convy\.yml; nothing was written/)
  assert.equal(await readFile(join(cwd, 'convy.yml'), 'utf8'), 'agents: {}\n')
  await assert.rejects(readFile(join(cwd, 'scenarios', 'order-status.yml')))
})
