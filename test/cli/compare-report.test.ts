import assert from 'node:assert/strict'
import { mkdtemp, readFile, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import { shortId } from '../../src/records/journal/run-folder.ts'
import { writeSyntheticRun } from '../fakes/synthetic-run.ts'
import { runInProcess } from './harness.ts'

async function twoRuns(options: { brokenAfter: boolean }) {
  const cwd = await mkdtemp(join(tmpdir(), 'convy-compare-'))
  const results = join(cwd, 'results')
  const before = await writeSyntheticRun(results, { seed: 1, scenarios: 12, k: 5, passProbability: () => 1, startedAt: new Date('2026-11-28T10:00:00Z') })
  // The same agent; in the broken case its first scenario fails every time.
  const after = await writeSyntheticRun(results, {
    seed: 2,
    scenarios: 12,
    k: 5,
    passProbability: (index) => (options.brokenAfter && index === 0 ? 0 : 1),
    startedAt: new Date('2026-11-29T10:00:00Z'),
  })
  return { cwd, before: before.manifest.id, after: after.manifest.id }
}

test('compare: a broken scenario is Worse; the page, the markdown, the JSON and the gate agree', async () => {
  const { cwd, before, after } = await twoRuns({ brokenAfter: true })
  const summary = await runInProcess(['compare', shortId(before), shortId(after)], { cwd, env: {} })
  // compare gates by default with fail-on: worse, as the action and publish do.
  assert.equal(summary.code, 1, summary.stderr)
  assert.match(summary.stdout, /^✗ Worse: /)
  const page = join(cwd, 'results', 'compare', `${shortId(before)}-vs-${shortId(after)}.html`)
  assert.ok((await stat(page)).size > 0)
  assert.match(summary.stdout, /worse: \S+ 5\/5 → 0\/5/)
  // The index lists the new compare page and both runs with their counts.
  const index = await readFile(join(cwd, 'results', 'index.html'), 'utf8')
  assert.ok(index.includes(`href="compare/${encodeURIComponent(`${shortId(before)}-vs-${shortId(after)}.html`)}"`), 'the compare page is in the index')
  for (const id of [before, after]) {
    const attempts = await readAllAttempts(join(cwd, 'results', id))
    // An agent error counts as not passed, as on every surface.
    const counted = attempts.filter((a) => a.verdict === 'passed' || a.verdict === 'failed' || a.verdict === 'agent_error').length
    const passed = attempts.filter((a) => a.verdict === 'passed').length
    assert.ok(index.includes(` · ${passed} of ${counted}</td>`), `${id}: ${passed} of ${counted} in the index`)
  }

  const markdown = await runInProcess(['compare', before, after, '--markdown', '--report-url', 'https://example.test/r'], { cwd, env: {} })
  assert.match(markdown.stdout, /^<!-- convy-ci:[^>]+ -->\n/)
  assert.match(markdown.stdout, /Worse/)

  const json = await runInProcess(['compare', before, after, '--json'], { cwd, env: {} })
  const comparison = JSON.parse(json.stdout) as { verdict: string; scenarios: { worse: { id: string }[] } }
  assert.equal(comparison.verdict, 'worse')
  assert.equal(comparison.scenarios.worse.length, 1)

  assert.equal((await runInProcess(['compare', before, after, '--fail-on', 'worse'], { cwd, env: {} })).code, 1)
  assert.equal((await runInProcess(['compare', before, after, '--fail-on', 'failing'], { cwd, env: {} })).code, 1)
  assert.equal((await runInProcess(['compare', before, after, '--fail-on', 'never'], { cwd, env: {} })).code, 0)
})

test('compare: the same agent against itself is within noise and passes the gate', async () => {
  const { cwd, before, after } = await twoRuns({ brokenAfter: false })
  const result = await runInProcess(['compare', before, after, '--fail-on', 'worse'], { cwd, env: {} })
  assert.equal(result.code, 0, result.stderr)
  assert.match(result.stdout, /^~ Within noise/)
})

test('compare: unknown runs and bad options are input errors', async () => {
  const { cwd, before } = await twoRuns({ brokenAfter: false })
  const cases: [string[], RegExp][] = [
    [['compare', before, 'ffff'], /no run "ffff"/],
    [['compare', before], /give two runs/],
    [['compare', before, before, '--markdown', '--json'], /choose one/],
    [['compare', before, before, '--fail-on', 'sometimes'], /expected one of worse, failing, never/],
  ]
  for (const [argv, expected] of cases) {
    const result = await runInProcess(argv, { cwd, env: {} })
    assert.equal(result.code, 2, argv.join(' '))
    assert.match(result.stderr, expected)
  }
})

test('report rebuilds every run’s report and the index, newest first', async () => {
  const { cwd, before, after } = await twoRuns({ brokenAfter: false })
  const result = await runInProcess(['report'], { cwd, env: {} })
  assert.equal(result.code, 0, result.stderr)
  assert.match(result.stdout, /^2 reports written/)
  const index = await readFile(join(cwd, 'results', 'index.html'), 'utf8')
  assert.ok(index.indexOf(shortId(after)) < index.indexOf(shortId(before)), 'the newer run comes first')
  for (const id of [before, after]) assert.ok((await stat(join(cwd, 'results', ...id.split('/'), 'report.html'))).size > 0)
})
