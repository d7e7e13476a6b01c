import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { convyStepInputs, DEFAULT_RULES, projectRules, rulesOfStep, stricterRules, workflowEnv, type GateRules } from '../../src/app/publish/gate-rules.ts'
import { decideGate } from '../../src/verdict/decide-gate.ts'
import { compareRuns } from '../../src/verdict/compare-runs.ts'
import { tallyRecord } from '../../src/records/tally/run-tally.ts'
import { run } from './run-builder.ts'

// Issue 38: every setting a pull request could loosen its own gate with, held against the base's.

const base: GateRules = { ...DEFAULT_RULES, judgeModel: 'gpt-4.1', judgeEndpoint: '${CONVY_BASE_URL}', minKappa: 0.6 }

describe('stricterRules', () => {
  test('each loosening route is undone by the base branch’s value and named', () => {
    const routes: [Partial<GateRules>, keyof GateRules, RegExp][] = [
      [{ failOn: 'never' }, 'failOn', /changes fail-on from "worse" to "never": the gate used main's \("worse"\)/],
      [{ failOnInconclusive: false }, 'failOnInconclusive', /fail-on-inconclusive from "true" to "false": the gate used main's/],
      [{ gateAcrossJudgeChange: true }, 'gateAcrossJudgeChange', /gate-across-judge-change from "false" to "true": the gate used main's/],
      [{ minSpeedChangeMs: 5000 }, 'minSpeedChangeMs', /min-speed-change from "50" to "5000": the gate used main's \("50"\)/],
      [{ comment: 'never' }, 'comment', /comment from "on-change" to "never": the gate used main's/],
      [{ minKappa: 0.2 }, 'minKappa', /min_kappa from "0.6" to "0.2": the gate used main's/],
      [{ minKappa: null }, 'minKappa', /min_kappa from "0.6" to unset: the gate used main's/],
      [{ baseline: 'none' }, 'baseline', /baseline from "auto" to "none": the gate used main's/],
      [{ baseline: '12345' }, 'baseline', /baseline from "auto" to "12345"/],
      [{ baselineBranch: 'my-branch' }, 'baselineBranch', /baseline-branch from unset to "my-branch": the gate used main's/],
    ]
    for (const [change, key, said] of routes) {
      const decided = stricterRules({ ...base, ...change }, base, 'main')
      assert.deepEqual(decided.rules[key], base[key], key)
      assert.equal(decided.differences.length, 1, key)
      assert.match(decided.differences[0]!, said)
      assert.deepEqual(decided.unmet, [], key)
    }
  })

  test('a limit the pull request removes or raises is the base’s; a stricter one of its own stands', () => {
    const limited = { ...base, failOnSlower: 50, failOnCostlier: 25 }
    assert.deepEqual(stricterRules({ ...limited, failOnSlower: null, failOnCostlier: 80 }, limited, 'main').rules, limited)
    const stricter = stricterRules({ ...limited, failOnSlower: 10, failOn: 'failing', comment: 'always' }, limited, 'main')
    assert.equal(stricter.rules.failOnSlower, 10)
    assert.equal(stricter.rules.failOn, 'failing')
    assert.equal(stricter.rules.comment, 'always')
    assert.ok(stricter.differences.every((d) => /the gate used this pull request's, the stricter/.test(d)))
  })

  test("another judge or endpoint is settled with the base's judge (item 2): said, and the base's judge handed on with its step's variables", () => {
    const endpoint = stricterRules({ ...base, judgeEndpoint: 'https://lenient.example/v1' }, base, 'main', { CONVY_BASE_URL: 'http://judge.internal/v1' })
    assert.deepEqual(endpoint.unmet, [])
    assert.match(endpoint.differences[0]!, /changes the judge to "gpt-4.1" at another endpoint \("https:\/\/lenient.example\/v1", was "\$\{CONVY_BASE_URL\}"\): the gate used main's judge \("gpt-4.1"\) on this pull request's dialogues/)
    assert.deepEqual(endpoint.baseJudge, { model: 'gpt-4.1', baseUrl: '${CONVY_BASE_URL}', env: { CONVY_BASE_URL: 'http://judge.internal/v1' } })
    // A base that names no judge has none to settle with: the change cannot pass.
    const none = stricterRules({ ...base, judgeModel: 'gpt-lenient' }, { ...base, judgeModel: null }, 'main')
    assert.equal(none.baseJudge, null)
    assert.match(none.unmet[0]!, /changes the judge to "gpt-lenient": main names no judge to settle it with/)
  })

  test('fewer attempts cannot be undone: unmet, and a pass becomes evidence missing', () => {
    assert.deepEqual(stricterRules({ ...base, attempts: 3 }, base, 'main').unmet, ["this pull request lowers attempts from 5 to 3: its run has fewer attempts than main's rules ask for"])
    assert.deepEqual(stricterRules({ ...base, attempts: 8 }, base, 'main').unmet, [])
    const model = stricterRules({ ...base, attempts: 3 }, base, 'main')

    const same = run({ a: 'PPPPP', b: 'PPPPP' })
    const comparison = compareRuns(tallyRecord(same), tallyRecord(same), { now: new Date('2026-03-02T00:00:00Z') })
    assert.equal(decideGate({ comparison }, { failOn: 'worse' }).result.outcome, 'pass')
    const held = decideGate({ comparison }, { failOn: 'worse', unmetRules: model.unmet })
    assert.equal(held.result.outcome, 'inconclusive')
    assert.equal(held.result.inconclusive, 'evidence-missing')
    assert.equal(held.verdict, 'inconclusive')
    assert.match(held.result.reason, /^Not a pass: this pull request lowers attempts/)
  })

  test('nothing changed: nothing said', () => {
    assert.deepEqual(stricterRules(base, { ...base }, 'main'), { rules: base, differences: [], unmet: [], baseJudge: { model: 'gpt-4.1', baseUrl: '${CONVY_BASE_URL}', env: {} }, base: 'main' })
  })
})

describe('reading the rules of a workflow file and a convy.yml', () => {
  const workflow = `
on: pull_request
jobs:
  lint:
    runs-on: ubuntu-latest
    steps: [{ uses: actions/checkout@v5 }]
  convy:
    runs-on: ubuntu-latest
    env: { JUDGE_URL: 'http://job.example/v1', REGION: eu }
    steps:
      - uses: actions/checkout@v5
      - uses: convy/action@v1
        with: { agent: other_bot, fail-on: never }
      - uses: convy/action@v1
        env:
          JUDGE_URL: http://step.example/v1
          OPENAI_API_KEY: \${{ secrets.OPENAI_API_KEY }}
          RETRIES: 3
        with:
          agent: support_bot
          attempts: 7
          fail-on: failing
          fail-on-slower: 40
          min-speed-change: 20
          comment: bogus
`
  test('the convy step of the job that runs the same agent; values that do not parse are the defaults', () => {
    const step = convyStepInputs(workflow, 'convy', ['support_bot'])
    const rules = rulesOfStep(step!, 'models:\n  judge: gpt-4.1\n  base_url: ${CONVY_BASE_URL}\njudge:\n  min_kappa: 0.7\n')
    assert.deepEqual(rules, { ...DEFAULT_RULES, failOn: 'failing', attempts: 7, failOnSlower: 40, minSpeedChangeMs: 20, comment: 'on-change', minKappa: 0.7, judgeModel: 'gpt-4.1', judgeEndpoint: '${CONVY_BASE_URL}' })
    assert.equal(convyStepInputs(workflow, 'lint', ['support_bot']), null)
    assert.equal(convyStepInputs('not: [yaml', 'convy', ['support_bot']), null)
    assert.deepEqual(projectRules('{{{ not yaml'), { minKappa: null, judgeModel: null, judgeEndpoint: null })
  })

  test("the convy step's variables, over its job's; an expression is left to the job's own environment", () => {
    assert.deepEqual(workflowEnv(workflow, 'convy', ['support_bot']), { JUDGE_URL: 'http://step.example/v1', REGION: 'eu', RETRIES: '3' })
    assert.deepEqual(workflowEnv(workflow, 'lint', ['support_bot']), {})
    assert.deepEqual(workflowEnv('not: [yaml', 'convy', ['support_bot']), {})
  })
})
