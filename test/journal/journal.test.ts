import assert from 'node:assert/strict'
import { appendFile, mkdir, mkdtemp, readFile, rmdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { findRun, readAllAttempts, readManifest } from '../../src/records/journal/read-run.ts'
import { RUN_FORMAT, type Attempt, type RunManifest } from '../../src/records/journal/records.ts'
import { RunJournal } from '../../src/records/journal/run-journal.ts'
import { newRunId, runDir } from '../../src/records/journal/run-folder.ts'
import { processWriter } from '../../src/entry/cli/writer.ts'

const manifest = (id: string): RunManifest => ({
  format: RUN_FORMAT,
  id,
  agent: { name: 'bot', kind: 'echo', version: null, fingerprint: 'f' },
  convyVersion: '0.0.0',
  models: { user: null, judge: null, fingerprint: 'm', prices: {} },
  settings: { k: 1, parallel: 1, turnTimeoutSeconds: 1, scenarioGlobs: [], tags: [], smoke: false, shard: null },
  scenarios: [],
  startedAt: new Date(0).toISOString(),
  finishedAt: null,
  state: 'running',
  ci: null,
})

const attempt = (scenario: string, n: number, text = 'x'): Attempt => ({
  scenario,
  attempt: n,
  verdict: 'passed',
  error: null,
  claims: [],
  checks: [],
  turns: [{ role: 'agent', text, seconds: 0.1, tokens: null, error: null }],
  agentTokens: null,
  models: { user: null, judge: null },
  startedAt: new Date(0).toISOString(),
  seconds: 0.1,
})

const writer = processWriter('convy-ci test')

test('attempts finishing at once are written as whole lines, none lost or interleaved', async () => {
  const results = await mkdtemp(join(tmpdir(), 'convy-journal-'))
  const id = newRunId('bot', new Date('2026-11-29T10:00:00Z'), () => 'ab12')
  assert.equal(id, 'bot/2026-11-29T10-00-00_ab12')
  const journal = await RunJournal.create(results, manifest(id), writer)
  assert.equal(journal.dir, runDir(results, id))
  const big = 'y'.repeat(200_000)
  await Promise.all(Array.from({ length: 200 }, (_, i) => journal.append(attempt(`s${i % 7}`, i + 1, i % 10 === 0 ? big : `answer ${i}`))))
  await journal.setState('finished', new Date(1000))
  await journal.release()
  const read = await readAllAttempts(runDir(results, id))
  assert.equal(read.length, 200)
  assert.deepEqual(new Set(read.map((a) => a.attempt)).size, 200)
  assert.equal((await readManifest(runDir(results, id))).state, 'finished')
  assert.equal((await findRun(results, 'ab12')).id, id)
})

test('an attempt that cannot be written rejects its append, and the next one is written', async () => {
  const results = await mkdtemp(join(tmpdir(), 'convy-journal-'))
  const id = newRunId('bot', new Date('2026-11-29T10:00:00Z'), () => 'cd34')
  const journal = await RunJournal.create(results, manifest(id), writer)
  // A folder where attempts.jsonl should be: the system refuses to open it for appending.
  await mkdir(join(journal.dir, 'attempts.jsonl'))
  await assert.rejects(journal.append(attempt('s1', 1)), { code: 'EISDIR' })
  await rmdir(join(journal.dir, 'attempts.jsonl'))
  await journal.append(attempt('s1', 2))
  await journal.release()
  assert.deepEqual((await readAllAttempts(journal.dir)).map((a) => a.attempt), [2])
})

test('a torn last line is ignored when read, and cut off before a resume appends', async () => {
  const results = await mkdtemp(join(tmpdir(), 'convy-journal-'))
  const id = 'bot/2026-11-29T10-00-00_cd34'
  const journal = await RunJournal.create(results, manifest(id), writer)
  const dir = journal.dir
  await journal.append(attempt('a', 1))
  await journal.release()
  await appendFile(join(dir, 'attempts.jsonl'), '{"scenario":"a","attempt":2,"verd')
  assert.deepEqual((await readAllAttempts(dir)).map((a) => a.attempt), [1])

  const reopened = await RunJournal.open(dir, writer)
  await reopened.append(attempt('a', 2))
  await reopened.release()
  assert.deepEqual((await readAllAttempts(dir)).map((a) => a.attempt), [1, 2])
  const lines = (await readFile(join(dir, 'attempts.jsonl'), 'utf8')).trimEnd().split('\n')
  assert.equal(lines.length, 2)
})

test('a whole last line without its newline is kept: reopening adds the newline, not a cut', async () => {
  const results = await mkdtemp(join(tmpdir(), 'convy-journal-'))
  const journal = await RunJournal.create(results, manifest('bot/2026-11-29T10-00-00_ef56'), writer)
  const dir = journal.dir
  await journal.append(attempt('a', 1))
  await journal.release()
  // Killed after writing attempt 2 but before its newline: the line is whole and readers count it.
  await appendFile(join(dir, 'attempts.jsonl'), JSON.stringify(attempt('a', 2, 'z'.repeat(150_000))))
  assert.deepEqual((await readAllAttempts(dir)).map((a) => a.attempt), [1, 2])

  const reopened = await RunJournal.open(dir, writer)
  await reopened.append(attempt('a', 3))
  await reopened.release()
  assert.deepEqual((await readAllAttempts(dir)).map((a) => a.attempt), [1, 2, 3])
  assert.equal((await readFile(join(dir, 'attempts.jsonl'), 'utf8')).split('\n').length, 4)
})

test('two runs with the same agent, second and hex get folders of their own', async () => {
  const results = await mkdtemp(join(tmpdir(), 'convy-journal-'))
  const id = 'bot/2026-11-29T10-00-00_aaaa'
  const hexes = ['aaaa', 'bbbb']
  const random = () => hexes.shift() ?? 'cccc'
  const started = { ...manifest(id), startedAt: '2026-11-29T10:00:00.400Z' }
  const first = await RunJournal.create(results, started, writer, random)
  const second = await RunJournal.create(results, started, writer, random)
  await first.append(attempt('a', 1, 'first'))
  await second.append(attempt('a', 1, 'second'))
  await first.release()
  await second.release()
  assert.equal(first.current.id, id)
  assert.equal(second.current.id, 'bot/2026-11-29T10-00-00_bbbb')
  assert.notEqual(first.dir, second.dir)
  assert.equal((await readManifest(second.dir)).id, second.current.id)
  assert.deepEqual((await readAllAttempts(first.dir)).map((a) => a.turns[0]!.text), ['first'])
  assert.deepEqual((await readAllAttempts(second.dir)).map((a) => a.turns[0]!.text), ['second'])
})
