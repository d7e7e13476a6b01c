import assert from 'node:assert/strict'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { gateRoute, type GateRoute } from '../fakes/gate-routes.ts'
import { writeRunRecord } from '../fakes/synthetic-run.ts'
import { runInProcess } from './harness.ts'

/**
 * Every way around the gate of issue 21, end to end through `convy-ci compare --fail-on worse` on run
 * folders: in each, the pull request's run really broke a scenario (5/5 → 0/5) and hides it one way.
 * None may pass; the comment's first lines say what happened.
 */
async function compareRoute(route: GateRoute, ...args: string[]) {
  const cwd = await mkdtemp(join(tmpdir(), `convy-gate-${route.name}-`))
  await writeFile(join(cwd, 'convy.yml'), 'agents:\n  bot: { url: "http://127.0.0.1:1/chat", body: { message: "{text}" }, reply: answer }\n')
  const results = join(cwd, 'results')
  await writeRunRecord(results, route.baseline)
  await writeRunRecord(results, route.pr)
  const gated = await runInProcess(['compare', route.baseline.manifest.id, route.pr.manifest.id, '--fail-on', 'worse', ...args], { cwd, env: {} })
  const markdown = await runInProcess(['compare', route.baseline.manifest.id, route.pr.manifest.id, '--markdown', '--fail-on', 'never'], { cwd, env: {} })
  const lines = markdown.stdout.split('\n')
  return { gated, heading: lines[2]!, lead: lines[4]!, markdown: markdown.stdout }
}

describe('no way around the gate: a real break never passes', () => {
  test('laundered: the review blames the simulated user for every failure: Worse, with the sentence a reviewer needs (exit 1)', async () => {
    const { gated, heading, lead } = await compareRoute(gateRoute('laundered'))
    assert.equal(gated.code, 1, gated.stderr)
    assert.match(heading, /^### 🟥 Worse · support\\_bot$/)
    assert.match(lead, /^Worse: the simulated user went off script far more often against this version — usually the agent's doing: the review blamed the user for 0 of 30 attempts before and 5 of 30 now/)
  })

  test('blind: the judge refuses exactly the broken dialogues: evidence missing, naming the scenario (exit 3)', async () => {
    const route = gateRoute('blind')
    const { gated, heading, lead } = await compareRoute(route)
    assert.equal(gated.code, 3, gated.stderr)
    assert.match(heading, /^### 🟧 Inconclusive, evidence missing · Worse counting what this run lacks · 1 scenario without a verdict · support\\_bot$/)
    const first = route.baseline.manifest.scenarios[0]!.id
    assert.ok(lead.includes(`${first} 5/5 → 0/5 \\(attempts without a verdict\\)`), lead)
    assert.equal((await compareRoute(route, '--no-fail-on-inconclusive')).gated.code, 0, 'fail-on-inconclusive: false opts out')
  })

  test('renamed: matched to its baseline by content and compared: Worse (exit 1), the rename in the first lines', async () => {
    const route = gateRoute('renamed')
    const { gated, markdown } = await compareRoute(route)
    assert.equal(gated.code, 1, gated.stderr)
    const first = route.baseline.manifest.scenarios[0]!.id
    assert.ok(markdown.split('\n').slice(0, 12).some((line) => line === `- **renamed** ${first} → ${first}-renamed, matched by content and compared: 5/5 → 0/5`), markdown)
  })

  test('reworded: an edited scenario failing every attempt fails, beside the old version\'s standing (exit 1)', async () => {
    const route = gateRoute('reworded')
    const { gated, heading, lead, markdown } = await compareRoute(route)
    assert.equal(gated.code, 1, gated.stderr)
    assert.match(heading, /^### 🟥 Worse · support\\_bot$/)
    assert.match(lead, /^Edited and failing every attempt: \S+ \\\(0\/5; the baseline's old version 5\/5\\\)\./)
    assert.match(markdown, /^- \*\*edited\*\* \S+: 0\/5 now, the baseline's old version 5\/5$/m)
  })

  test('tag-only: tags and description are not the scenario: compared, Worse (exit 1)', async () => {
    const { gated, heading, markdown } = await compareRoute(gateRoute('tag-only'))
    assert.equal(gated.code, 1, gated.stderr)
    assert.match(heading, /^### 🟥 Worse · support\\_bot$/)
    assert.doesNotMatch(markdown, /edited/)
  })

  test('removed: a scenario that merely disappears does not pass (exit 3); retired on purpose, it is said and passes', async () => {
    const removed = await compareRoute(gateRoute('removed'))
    assert.equal(removed.gated.code, 3, removed.gated.stderr)
    assert.match(removed.heading, /^### 🟧 Inconclusive, evidence missing · Worse counting what this run lacks · 1 scenario removed · support\\_bot$/)
    assert.match(removed.markdown, /^- \*\*removed\*\* \S+ \(baseline 5\/5\): gone without a `retired:` entry, so the gate does not pass$/m)
    const retired = await compareRoute(gateRoute('retired'))
    assert.equal(retired.gated.code, 0, retired.gated.stderr)
    assert.match(retired.markdown, /^- \*\*retired\*\* \S+ \(baseline 5\/5\): the refund flow moved to the billing agent$/m)
  })

  test('judge-unstable on a real break: one stray vote at m = 3 does not make a broken agent a noisy judge (exit 1)', async () => {
    const route = gateRoute('judge-unstable')
    const { gated, heading } = await compareRoute(route)
    assert.equal(gated.code, 1, gated.stderr)
    assert.match(heading, /^### 🟥 Worse · support\\_bot$/)
  })

  test('the PR changes the judge model: evidence missing, fails by default (exit 3); --gate-across-judge-change gates as before (exit 1)', async () => {
    const route = gateRoute('judge-change')
    const { gated, heading, lead } = await compareRoute(route)
    assert.equal(gated.code, 3, gated.stderr)
    assert.match(heading, /^### ⚠️ Inconclusive, evidence missing · Judge changed · Worse, not attributable to the agent · support\\_bot$/)
    assert.match(lead, /^Evidence missing: Worse \\\(\S+\\\), but the baseline was not judged as this run was and no rejudge settled it\. The judge model changed from "gpt-4\.1" to "gpt-4\.1-nano"/)
    assert.equal((await compareRoute(route, '--gate-across-judge-change')).gated.code, 1)
  })
})
