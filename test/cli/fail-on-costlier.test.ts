import assert from 'node:assert/strict'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import type { Attempt } from '../../src/records/journal/records.ts'
import { seededRandom } from '../../src/base/stats/permutation.ts'
import { attempt, manifest, scenario } from '../compare/run-builder.ts'
import { writeRunRecord } from '../fakes/synthetic-run.ts'
import { makeProject, runInProcess } from './harness.ts'

/**
 * `compare --fail-on-costlier PCT` on two recorded runs: the same agent, then one reporting about
 * twice the tokens per attempt. Gated through the one decision compare, publish and the action share.
 */
const ids = ['order', 'refund', 'greeting', 'handoff', 'billing', 'returns']

function record(id: string, tokens: number, seed: number) {
  const random = seededRandom(seed)
  const attempts = ids.flatMap((s) =>
    Array.from({ length: 5 }, (_, i): Attempt => {
      const used = tokens * Math.exp((random() - 0.5) * 0.4)
      return { ...attempt(s, i + 1, 'passed'), agentTokens: { input: Math.round(used * 0.7), output: Math.round(used * 0.3) } }
    }),
  )
  return { manifest: manifest({ id, scenarios: ids.map((s) => scenario(s)) }), attempts }
}

describe('compare --fail-on-costlier', () => {
  test("twice the agent's tokens fails past 50%, says why, and the markdown has it under Speed and cost; a bad percentage is exit 2", async () => {
    const dir = await makeProject({})
    const results = join(dir, 'results')
    const before = await writeRunRecord(results, record('bot/2026-03-01T10-00-00_a1b2', 1000, 1))
    const after = await writeRunRecord(results, record('bot/2026-03-01T11-00-00_c3d4', 2000, 2))

    const gated = await runInProcess(['compare', before, after, '--fail-on-costlier', '50', '--markdown'], { cwd: dir, env: {} })
    assert.equal(gated.code, 1, gated.stderr)
    assert.equal(gated.stderr.match(/^gate /gm)?.length, 1)
    assert.match(gated.stderr, /^gate \(fail-on: worse, fail-on-costlier 50%\): fail: The agent's tokens per attempt are \d\.\d\d × the baseline's overall \(p = .+\), past the 50% allowed \(fail-on-costlier\)\.$/m)
    assert.match(gated.stdout, /\*\*Speed and cost\*\*\n\n- Overall: agent tokens \d\.\d × more per attempt overall \(p/)

    const lenient = await runInProcess(['compare', before, after, '--fail-on-costlier', '400'], { cwd: dir, env: {} })
    assert.equal(lenient.code, 0, lenient.stderr)
    const off = await runInProcess(['compare', before, after], { cwd: dir, env: {} })
    assert.equal(off.code, 0, 'off by default')

    for (const wrong of ['cheap', '-5', '']) {
      const result = await runInProcess(['compare', before, after, `--fail-on-costlier=${wrong}`], { cwd: dir, env: {} })
      assert.equal(result.code, 2, wrong)
      assert.match(result.stderr, new RegExp(`--fail-on-costlier ${wrong}: expected a percentage, 0 or more`))
    }
  })
})
