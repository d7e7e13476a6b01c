import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { publishRun } from '../../src/app/publish/publish-run.ts'
import type { PublishDeps, PublishSettings } from '../../src/app/publish/deps.ts'
import type { Attempt } from '../../src/records/journal/records.ts'
import { tallyRecord, type RunRecord } from '../../src/records/tally/run-tally.ts'
import { seededRandom } from '../../src/base/stats/permutation.ts'
import { attempt, manifest, scenario } from './run-builder.ts'

/**
 * fail-on-slower and fail-on-costlier through publishRun, the code behind the action and `convy-ci
 * publish`: the gate fails past the limit under any fail-on, and the verdict output, the check, the
 * step's failure and the comment say the same.
 */
const ids = Array.from({ length: 6 }, (_, i) => `s${i}`)
function run(seed: number, times: number, dollars: number): RunRecord {
  const random = seededRandom(seed)
  const attempts = ids.flatMap((id) =>
    Array.from({ length: 5 }, (_, i): Attempt => {
      const base = attempt(id, i + 1, 'passed')
      const noise = () => Math.exp((random() - 0.5) * 0.4)
      return {
        ...base,
        turns: [base.turns[0]!, { ...base.turns[1]!, seconds: times * noise() }],
        // `dollars` are the agent's own (its tokens at its price); the judge's are the harness's, the same on both sides.
        agentCostUsd: dollars * noise(),
        models: { user: null, judge: { model: 'judge-model', calls: 1, tries: 1, tokens: { input: 100, output: 10 }, seconds: 1, costUsd: 0.001 } },
      }
    }),
  )
  return { manifest: manifest({ scenarios: ids.map((id) => scenario(id)) }), attempts }
}

const before = tallyRecord(run(1, 1, 0.01))
const slowAndDear = tallyRecord(run(2, 2.5, 0.03))

function deps(settings: Partial<PublishSettings>): PublishDeps {
  return {
    octokit: null,
    repository: { owner: 'acme', repo: 'bot' },
    serverUrl: 'https://github.com',
    settings: { failOn: 'worse', failOnInconclusive: true, gateAcrossJudgeChange: false, comment: 'always', check: true, job: null, ...settings },
    log: { info: () => {}, notice: () => {}, warning: () => {} },
    now: () => new Date('2026-03-02T00:00:00Z'),
  }
}
const publish = (settings: Partial<PublishSettings>) => publishRun(deps(settings), { agent: 'bot', tally: slowAndDear, reportUrl: null }, { tally: before, source: { kind: 'artifact', runId: 1 } }, null)

describe('publishRun with fail-on-slower and fail-on-costlier', () => {
  test('off by default: within noise passes, and the comment still says what changed in its Speed and cost section', async () => {
    const published = await publish({})
    assert.deepEqual([published.verdict, published.gated.outcome, published.conclusion, published.failure], ['within-noise', 'pass', 'success', null])
    assert.match(published.markdown, /\*\*Speed and cost\*\*\n\n- Overall: answers 2\.\d × slower overall \(p [^\n]+\n- Overall: the agent's dollars \d\.\d × more per attempt overall/)
    assert.doesNotMatch(published.markdown, /Gate:/)
  })

  test('past fail-on-slower: the step fails, the verdict is worse, the check fails and the comment says so under its heading', async () => {
    const published = await publish({ failOnSlower: 50 })
    assert.deepEqual([published.verdict, published.gated.outcome, published.conclusion], ['worse', 'fail', 'failure'])
    assert.match(published.failure!, /^bot: Answers are 2\.\d\d × slower overall \(p = .+\), past the 50% allowed \(fail-on-slower\)\.$/)
    assert.match(published.markdown, /^<!-- convy-ci:bot -->\n\n### ⬜ ~ Within noise · bot\n\n> \*\*🟥 Gate: fails\*\* \(verdict: worse\)\. Answers are 2\.\d\d × slower overall/)
  })

  test('past fail-on-costlier, even under fail-on: never (asked for on its own); not past a higher limit', async () => {
    const published = await publish({ failOn: 'never', failOnCostlier: 100 })
    assert.deepEqual([published.verdict, published.gated.outcome, published.conclusion], ['worse', 'fail', 'failure'])
    assert.match(published.failure!, /^bot: The agent's dollars per attempt are \d\.\d\d × the baseline's overall \(p = .+\), past the 100% allowed \(fail-on-costlier\)\.$/)
    const lenient = await publish({ failOnCostlier: 1000, failOnSlower: 1000 })
    assert.deepEqual([lenient.verdict, lenient.gated.outcome, lenient.failure], ['within-noise', 'pass', null])
  })
})
