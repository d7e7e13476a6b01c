import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { describe, test } from 'node:test'
import { parse } from 'yaml'
import { INPUT_NAMES, readInputs } from '../../src/entry/action/inputs.ts'
import { InputErrors } from '../../src/base/shared/errors.ts'

const given = (inputs: Record<string, string>) => (name: string) => inputs[name] ?? ''

describe('action inputs', () => {
  test('an agent is all it takes; the rest has defaults', () => {
    assert.deepEqual(readInputs(given({ agent: 'support_bot' })), {
      mode: 'run',
      agents: ['support_bot'],
      config: 'convy.yml',
      scenarios: [],
      tags: [],
      attempts: 5,
      baselineAttempts: 10,
      attemptsByHistory: true,
      adaptive: true,
      adaptiveFirstRound: 3,
      maxAttempts: 10,
      parallel: 4,
      turnTimeoutSeconds: 600,
      waitFor: null,
      workingDirectory: '.',
      failOn: 'worse',
      failOnInconclusive: true,
      gateAcrossJudgeChange: false,
      failOnSlower: null,
      failOnCostlier: null,
      minSpeedChangeSeconds: 0.05,
      rejudge: null,
      comment: 'on-change',
      check: true,
      baseline: { kind: 'auto' },
      baselineBranch: null,
      artifactName: 'convy',
      retentionDays: undefined,
      shard: null,
      cache: 'readwrite',
      budgetUsd: null,
      githubToken: null,
      judgeMinKappa: null,
      judgeLabels: null,
      history: 10,
    })
  })

  test('action.yml documents every input, with the defaults the code uses', async () => {
    const action = parse(await readFile(new URL('../../action.yml', import.meta.url), 'utf8')) as { inputs: Record<string, { default?: string; description: string }> }
    assert.deepEqual(Object.keys(action.inputs).sort(), [...INPUT_NAMES].sort())
    for (const [name, input] of Object.entries(action.inputs)) assert.ok(input.description.length > 20, `${name} is described`)
    const fromActionYml = readInputs((name) => (name === 'agent' ? 'a' : name === 'github-token' ? '' : (action.inputs[name]?.default ?? '')))
    assert.deepEqual(fromActionYml, readInputs(given({ agent: 'a' })))
    assert.equal(action.inputs['github-token']?.default, '${{ github.token }}')
  })

  test('every input, given', () => {
    const inputs = readInputs(
      given({
        mode: 'merge',
        agent: 'a, b\nc a',
        config: 'bench/convy.yml',
        scenarios: 'order-*\nrefund',
        tags: 'smoke,orders',
        attempts: '5',
        'baseline-attempts': '3',
        'attempts-by-history': 'false',
        adaptive: 'true',
        'max-attempts': '4',
        parallel: '8',
        'turn-timeout': '30.5',
        'wait-for': 'http://localhost:8080/health',
        'wait-for-timeout': '45',
        'working-directory': 'services/bot',
        'fail-on': 'failing',
        'fail-on-inconclusive': 'true',
        'gate-across-judge-change': 'TRUE',
        'min-speed-change': '120',
        rejudge: '3',
        comment: 'always',
        check: 'False',
        baseline: '123456789',
        'baseline-branch': 'release',
        'artifact-name': 'convy-node24',
        'retention-days': '7',
        shard: '2/3',
        cache: 'read',
        'budget-usd': '2.5',
        'github-token': 'ghs_x',
        'judge-min-kappa': '0.7',
        'judge-labels': 'eval/labels.jsonl',
        history: '0',
      }),
    )
    assert.deepEqual(inputs, {
      mode: 'merge',
      agents: ['a', 'b', 'c'],
      config: 'bench/convy.yml',
      scenarios: ['order-*', 'refund'],
      tags: ['smoke', 'orders'],
      attempts: 5,
      // Never fewer than the pull requests' own attempts.
      baselineAttempts: 5,
      attemptsByHistory: false,
      adaptive: true,
      adaptiveFirstRound: 5,
      // Never fewer than the attempts every scenario plays first.
      maxAttempts: 5,
      parallel: 8,
      turnTimeoutSeconds: 30.5,
      waitFor: { url: 'http://localhost:8080/health', timeoutSeconds: 45 },
      workingDirectory: 'services/bot',
      failOn: 'failing',
      failOnInconclusive: true,
      gateAcrossJudgeChange: true,
      failOnSlower: null,
      failOnCostlier: null,
      minSpeedChangeSeconds: 0.12,
      rejudge: 3,
      comment: 'always',
      check: false,
      baseline: { kind: 'run', runId: 123456789 },
      baselineBranch: 'release',
      artifactName: 'convy-node24',
      retentionDays: 7,
      shard: { index: 2, total: 3 },
      cache: 'read',
      budgetUsd: 2.5,
      githubToken: 'ghs_x',
      judgeMinKappa: 0.7,
      judgeLabels: 'eval/labels.jsonl',
      history: 0,
    })
  })

  test('every wrong input is reported at once, by its name, with what was given', () => {
    const error = (() => {
      try {
        readInputs(given({ mode: 'gate', attempts: '0', check: 'yes', shard: '3/2', 'fail-on': 'sometimes', baseline: 'latest', 'artifact-name': 'a/b', 'wait-for': 'localhost', cache: 'sometimes', 'budget-usd': '-1' }))
      } catch (e) {
        return e
      }
      assert.fail('no error')
    })()
    assert.ok(error instanceof InputErrors)
    const messages = error.problems.map((p) => p.message)
    assert.deepEqual(messages.map((m) => /^input ([\w-]+)/.exec(m)?.[1]).sort(), ['agent', 'artifact-name', 'attempts', 'baseline', 'budget-usd', 'cache', 'check', 'fail-on', 'mode', 'shard', 'wait-for'])
    assert.ok(messages.includes('input agent is required: name at least one agent'), messages.join('\n'))
    assert.ok(messages.includes('input attempts "0": expected a whole number from 1 to 1000'))
    assert.ok(messages.includes('input shard "3/2": expected I/N with 1 ≤ I ≤ N, e.g. 1/4'))
    assert.ok(messages.includes('input fail-on "sometimes": expected one of worse, failing, never'))
    assert.ok(messages.includes('input cache "sometimes": expected one of off, read, write, readwrite'), messages.join('\n'))
    assert.ok(messages.includes('input budget-usd "-1": expected an amount of dollars above 0'), messages.join('\n'))
  })
})
