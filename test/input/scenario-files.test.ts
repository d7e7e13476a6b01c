import assert from 'node:assert/strict'
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { loadScenarios, loadSuite } from '../../src/records/scenario/load-scenarios.ts'
import { scenarioContentFingerprint, scenarioFingerprint } from '../../src/records/scenario/scenario.ts'
import { InputError, InputErrors } from '../../src/base/shared/errors.ts'

async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'convy-scenarios-'))
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, 'scenarios', name, '..'), { recursive: true })
    await writeFile(join(dir, 'scenarios', name), text)
  }
  return dir
}

async function problemsOf(files: Record<string, string>): Promise<string[]> {
  const dir = await project(files)
  try {
    await loadScenarios(join(dir, 'scenarios'), dir)
  } catch (error) {
    assert.ok(error instanceof InputError, `expected an input error, got ${String(error)}`)
    assert.equal(error.exitCode, 2)
    return error instanceof InputErrors ? error.problems.map((p) => p.message) : [error.message]
  }
  assert.fail('expected the scenarios to be rejected')
}

describe('scenario files', () => {
  test('a valid suite loads with defaults, ids from file names, nested folders', async () => {
    const dir = await project({
      'a.yml': 'user: Ask for a refund\njudge:\n  - The agent asks for the order number\n',
      'nested/b.yaml': 'id: custom-id\nscript: [hi, bye]\nchecks:\n  - contains: hello\n  - not_contains: rm -rf\n  - regex: "cron|systemd"\ntags: [x]\nmax_turns: 3\n',
    })
    const scenarios = await loadScenarios(join(dir, 'scenarios'), dir)
    assert.deepEqual(
      scenarios.map((s) => [s.id, s.file, s.maxTurns]),
      [
        ['a', 'scenarios/a.yml', 8],
        ['custom-id', 'scenarios/nested/b.yaml', 3],
      ],
    )
    assert.deepEqual(scenarios[1]!.checks, [
      { kind: 'contains', value: 'hello' },
      { kind: 'not_contains', value: 'rm -rf' },
      { kind: 'regex', value: 'cron|systemd' },
    ])
  })

  test('a description is kept for the report, and editing it does not make it another scenario', async () => {
    const text = 'script: [hi]\nchecks:\n  - contains: hello\n'
    const dir = await project({ 'a.yml': `description: Refunds for orders that came late\n${text}`, 'b.yml': `description: "  "\n${text}`, 'c.yml': text })
    await assert.rejects(loadScenarios(join(dir, 'scenarios'), dir), /scenarios\/b\.yml:1: description/)
    await writeFile(join(dir, 'scenarios', 'b.yml'), `description: Another wording\n${text}`)
    const [a, b, c] = await loadScenarios(join(dir, 'scenarios'), dir)
    assert.equal(a!.description, 'Refunds for orders that came late')
    assert.equal(c!.description, undefined)
    assert.equal(scenarioFingerprint(a!), scenarioFingerprint({ ...b!, id: a!.id, file: a!.file }))
    assert.equal(scenarioFingerprint(a!), scenarioFingerprint({ ...c!, id: a!.id, file: a!.file }))
    assert.notEqual(scenarioFingerprint(a!), scenarioFingerprint({ ...a!, script: ['hello'] }))
  })

  test('tags leave the fingerprint too; the content fingerprint leaves the id as well (renames)', async () => {
    const text = 'script: [hi]\nchecks:\n  - contains: hello\n'
    const dir = await project({ 'a.yml': `tags: [refunds]\n${text}`, 'b.yml': text })
    const [a, b] = await loadScenarios(join(dir, 'scenarios'), dir)
    assert.equal(scenarioFingerprint(a!), scenarioFingerprint({ ...b!, id: a!.id }))
    assert.notEqual(scenarioFingerprint(a!), scenarioFingerprint(b!), 'the id is still part of the fingerprint')
    assert.equal(scenarioContentFingerprint(a!), scenarioContentFingerprint(b!))
  })

  test('retired: <reason> keeps the file, unplayed, listed with its reason; an empty reason is an error on its line', async () => {
    const text = 'script: [hi]\nchecks:\n  - contains: hello\n'
    const dir = await project({ 'a.yml': text, 'old.yml': `retired: the login moved to the auth service\n${text}` })
    const suite = await loadSuite(join(dir, 'scenarios'), dir)
    assert.deepEqual(suite.scenarios.map((s) => s.id), ['a'])
    assert.deepEqual(suite.retired, [{ id: 'old', reason: 'the login moved to the auth service' }])
    assert.deepEqual((await loadScenarios(join(dir, 'scenarios'), dir)).map((s) => s.id), ['a'])
    assert.match((await problemsOf({ 'old.yml': `retired: "  "\n${text}` }))[0]!, /scenarios\/old\.yml:1: retired/)
  })

  test('fatal: true on the checks an answer can break; elsewhere, or not a boolean, an error on its line', async () => {
    const dir = await project({ 'ok.yml': 'script: [hi]\nchecks:\n  - not_contains: rm -rf\n    fatal: true\n  - tool_not_called: delete_user\n    fatal: true\n  - contains: hi\n    fatal: false\n' })
    const [ok] = await loadScenarios(join(dir, 'scenarios'), dir)
    assert.deepEqual(ok!.checks, [
      { kind: 'not_contains', value: 'rm -rf', fatal: true },
      { kind: 'tool_not_called', value: 'delete_user', fatal: true },
      { kind: 'contains', value: 'hi' },
    ])
    const problems = await problemsOf({
      'a.yml': 'script: [hi]\nchecks:\n  - contains: hello\n    fatal: true\n',
      'b.yml': 'script: [hi]\nchecks:\n  - not_contains: x\n    fatal: yes please\n',
      'c.yml': 'script: [hi]\nchecks:\n  - fatal: true\n',
    })
    assert.match(problems[0]!, /^scenarios\/a\.yml:4: checks\.0: `fatal` ends the attempt at the answer that breaks the check, which only `not_contains` and `tool_not_called` can do/)
    assert.match(problems[1]!, /^scenarios\/b\.yml:4: checks\.0\.fatal: expected true or false/)
    assert.match(problems[2]!, /^scenarios\/c\.yml:3: checks\.0: an empty check/)
  })

  test('an unknown key names the file, the line and the likely key', async () => {
    const [message] = await problemsOf({ 'typo.yml': 'user: hi\n\njudeg:\n  - claim\n' })
    assert.match(message!, /^scenarios\/typo\.yml:3: unknown key `judeg` — did you mean `judge`\?/)
  })

  test('a wrong type names the line of the value', async () => {
    const [message] = await problemsOf({ 'bad.yml': 'user: hi\njudge: [ok]\nmax_turns: many\n' })
    assert.match(message!, /^scenarios\/bad\.yml:3: max_turns: expected a number, got "many"/)
  })

  test('neither user nor script, neither judge nor checks', async () => {
    const problems = await problemsOf({ 'empty.yml': 'tags: [x]\n' })
    assert.equal(problems.length, 2)
    assert.match(problems[0]!, /needs `user`.*or `script`/)
    assert.match(problems[1]!, /needs `judge`.*`checks` or `end_state`/)
  })

  test('a typo inside a nested key gets its hint from the schema (simulated_user, limits)', async () => {
    const problems = await problemsOf({ 'nested.yml': 'script: [a]\nchecks: [{contains: b}]\nsimulated_user: { temprature: 0.2 }\nlimits: { answer_sm: 3000 }\n' })
    assert.deepEqual(problems, [
      'scenarios/nested.yml:3: simulated_user: unknown key `temprature` — did you mean `temperature`?',
      'scenarios/nested.yml:4: limits: unknown key `answer_sm` — did you mean `answer_ms`?',
    ])
  })

  test('a duplicate id names both files', async () => {
    const [message] = await problemsOf({ 'one.yml': 'id: same\nscript: [a]\nchecks: [{contains: b}]\n', 'two.yml': 'id: same\nscript: [a]\nchecks: [{contains: b}]\n' })
    assert.match(message!, /scenarios\/two\.yml:1: scenario id "same" is already used by scenarios\/one\.yml/)
  })

  test('an unquoted # leaves a check empty, and the error says why', async () => {
    const [message] = await problemsOf({ 'hash.yml': 'script: [a]\nchecks:\n  - contains: #2\n' })
    assert.match(message!, /hash\.yml:3: checks\.0\.contains is empty \(an unquoted # starts a YAML comment/)
  })

  test('an invalid regex and an unknown check kind', async () => {
    const problems = await problemsOf({ 're.yml': 'script: [a]\nchecks:\n  - regex: "(unclosed"\n  - startswith: x\n' })
    assert.match(problems[0]!, /re\.yml:3: checks\.0\.regex is not a pattern convy-ci can run/)
    assert.match(problems[1]!, /re\.yml:4: checks\.1: unknown check `startswith`/)
  })

  test('broken YAML is reported with its line, and every file is checked before failing', async () => {
    const problems = await problemsOf({ 'a.yml': 'user: hi\njudge: [x]\n  bad: indent\n', 'b.yml': 'user: 3\n' })
    assert.equal(problems.length, 3)
    assert.match(problems[0]!, /^scenarios\/a\.yml:\d+: not valid YAML/)
    assert.match(problems[1]!, /^scenarios\/b\.yml:1: user: expected a string, got 3/)
    // The wrong value does not hide the file's other problem.
    assert.match(problems[2]!, /^scenarios\/b\.yml:1: needs `judge`/)
  })

  test('the event loop runs while a large suite loads: what waits on it (the gateway check, Ctrl+C) is not held up', async () => {
    const files: Record<string, string> = {}
    for (let i = 0; i < 600; i++) files[`s${i}.yml`] = `user: Ask about order ${i}.\njudge: [The agent answers]\n`
    const dir = await project(files)
    // A timer of 1 ms fires on every turn of the loop; a load that never gave the loop a turn while
    // it read the files would see it fire only around its one asynchronous step (the folder listing).
    let turns = 0
    const ticker = setInterval(() => turns++, 1)
    let loaded
    try {
      loaded = await loadScenarios(join(dir, 'scenarios'), dir)
    } finally {
      clearInterval(ticker)
    }
    assert.equal(loaded.length, 600)
    assert.ok(turns >= 5, `the loop turned ${turns} times while 600 files loaded`)
  })
})
