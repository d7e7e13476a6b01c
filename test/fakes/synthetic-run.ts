import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import type { Attempt, CheckResult, ClaimResult, ModelUse, RunManifest, RunState, Turn } from '../../src/records/journal/records.ts'
import { ATTEMPTS_FILE, newRunId, RUN_FILE, runDir } from '../../src/records/journal/run-folder.ts'
import type { Scenario } from '../../src/records/scenario/scenario.ts'
import { AGENT_FILLER, TEMPLATES, type ScenarioTemplate } from './synthetic-scenarios.ts'
import { seededRandom } from '../../src/base/stats/permutation.ts'

/**
 * Realistic run folders of any size, the same for the same seed: a manifest and attempts exactly as
 * the runner writes them (src/records/journal/records.ts), with multi-turn dialogues, agent errors, attempts
 * without a verdict, claims with reasons and checks. Every attempt draws from its own random stream,
 * so changing one option (k, a scenario's pass probability) leaves the other attempts as they were.
 */

/** mulberry32 (base/stats/permutation.ts): the same seed, the same test data everywhere. */
export const createRng = seededRandom

function streamSeed(...parts: number[]): number {
  let h = 2166136261
  for (const part of parts) h = Math.imul(h ^ (part >>> 0), 16777619) ^ (h >>> 13)
  return h >>> 0
}

export interface SyntheticRunOptions {
  seed?: number
  agent?: string
  scenarios?: number
  k?: number
  /** The user's messages per attempt at most; some conversations end a line earlier. */
  turns?: number
  /** Chance an attempt of scenario `index` passes; default: half near-certain, some shaky, some weak. */
  passProbability?: (index: number, id: string) => number
  agentErrorRate?: number
  noVerdictRate?: number
  /** Characters of filler added to each answer, to make long dialogues. */
  extraAnswerChars?: number
  state?: RunState
  startedAt?: Date
  /** Whether convy.yml priced the models (then attempts carry costs). */
  prices?: boolean
}

type Options = Required<SyntheticRunOptions>

function withDefaults(o: SyntheticRunOptions): Options {
  return {
    seed: o.seed ?? 1,
    agent: o.agent ?? 'support_bot',
    scenarios: o.scenarios ?? TEMPLATES.length,
    k: o.k ?? 3,
    turns: o.turns ?? 4,
    passProbability: o.passProbability ?? ((index) => [0.98, 0.98, 0.85, 0.98, 0.55, 0.98, 0.85, 0.98, 0.85, 0.55][index % 10]!),
    agentErrorRate: o.agentErrorRate ?? 0.03,
    noVerdictRate: o.noVerdictRate ?? 0.02,
    extraAnswerChars: o.extraAnswerChars ?? 0,
    state: o.state ?? 'finished',
    startedAt: o.startedAt ?? new Date('2026-11-20T09:30:00Z'),
    prices: o.prices ?? true,
  }
}

function templateFor(index: number): { template: ScenarioTemplate; id: string } {
  const template = TEMPLATES[index % TEMPLATES.length]!
  const round = Math.floor(index / TEMPLATES.length)
  return { template, id: round === 0 ? template.id : `${template.id}-${round + 1}` }
}

function scenarioFor(index: number, maxTurns: number): Scenario {
  const { template, id } = templateFor(index)
  return {
    id,
    file: `scenarios/${template.tags[0]}/${id}.yml`,
    maxTurns,
    ...(template.user === undefined ? {} : { user: template.user }),
    ...(template.script === undefined ? {} : { script: template.script }),
    judge: template.judge,
    checks: template.checks,
    tags: template.tags,
  }
}

export function syntheticManifest(options: SyntheticRunOptions = {}): RunManifest {
  const o = withDefaults(options)
  const id = newRunId(o.agent, o.startedAt, () => streamSeed(o.seed).toString(16).padStart(8, '0').slice(0, 4))
  const finished = o.state === 'running' ? null : new Date(o.startedAt.getTime() + 60_000 + o.scenarios * o.k * 900).toISOString()
  return {
    format: 1,
    id,
    agent: { name: o.agent, kind: 'json', version: '2.4.1', fingerprint: 'a'.repeat(64) },
    convyVersion: '0.1.0',
    models: {
      user: 'gpt-4.1-mini',
      judge: 'gpt-4.1',
      fingerprint: 'b'.repeat(64),
      prices: o.prices ? { 'gpt-4.1-mini': [0.4, 1.6], 'gpt-4.1': [2, 8] } : {},
    },
    settings: { k: o.k, parallel: 4, turnTimeoutSeconds: 30, scenarioGlobs: ['scenarios/**/*.yml'], tags: [], smoke: false, shard: null },
    scenarios: Array.from({ length: o.scenarios }, (_, i) => scenarioFor(i, Math.max(o.turns, 2))),
    startedAt: o.startedAt.toISOString(),
    finishedAt: finished,
    state: o.state,
    ci: { commit: '3f9c2e1d8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d', branch: 'main', pullRequest: null },
  }
}

type Outcome = 'passed' | 'failed' | 'agent_error' | 'no_verdict'

function pick<T>(rng: () => number, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!
}

function answer(rng: () => number, t: ScenarioTemplate, turn: number, extraChars: number): string {
  const sentences = t.agentSentences
  const start = Math.min(turn * 2, sentences.length - 1)
  const parts = [sentences[start]!]
  if (start + 1 < sentences.length && rng() < 0.6) parts.push(sentences[start + 1]!)
  if (rng() < 0.3) parts.push(pick(rng, AGENT_FILLER))
  let text = parts.join(' ')
  while (text.length < extraChars) text += ` ${pick(rng, AGENT_FILLER)}`
  return text
}

function modelUse(model: string, calls: number, input: number, output: number, seconds: number, prices: boolean, price: [number, number]): ModelUse {
  const tokens = { input: Math.round(input), output: Math.round(output) }
  const costUsd = prices ? (tokens.input * price[0] + tokens.output * price[1]) / 1_000_000 : null
  return { model, calls, tries: calls, tokens, seconds, costUsd }
}

function dialogue(rng: () => number, t: ScenarioTemplate, o: Options, outcome: Outcome): { turns: Turn[]; brokeAt: number | null } {
  const lines = t.script ?? t.userLines
  const exchanges = t.script ? t.script.length : Math.max(2, o.turns - (rng() < 0.3 ? 1 : 0))
  const brokeAt = outcome === 'agent_error' ? Math.floor(rng() * exchanges) : null
  const turns: Turn[] = []
  let context = 0
  for (let i = 0; i < exchanges; i++) {
    const userText = lines[Math.min(i, lines.length - 1)]!
    turns.push({ role: 'user', text: userText, seconds: t.script ? 0 : 0.4 + rng() * 1.2, tokens: null, error: null })
    context += userText.length
    if (i === brokeAt) {
      const error = pick(rng, ['HTTP 502 Bad Gateway from http://localhost:8080/api/chat', 'no answer within 30 s (turn timeout)', 'reply path data.answer is missing in the response'])
      turns.push({ role: 'agent', text: '', seconds: error.includes('30 s') ? 30 : 0.2 + rng(), tokens: null, error })
      break
    }
    const text = answer(rng, t, i, o.extraAnswerChars)
    const slow = rng() < 0.05
    const seconds = slow ? 5 + rng() * 7 : 0.5 + rng() * rng() * 3.5
    turns.push({ role: 'agent', text, seconds, tokens: { input: 180 + Math.round(context / 4), output: Math.max(1, Math.round(text.length / 4)) }, error: null })
    context += text.length
  }
  return { turns, brokeAt }
}

function quote(turns: Turn[], rng: () => number): string {
  const answers = turns.filter((x) => x.role === 'agent' && x.text)
  const text = answers.length ? pick(rng, answers).text : ''
  return text.split(/(?<=[.!?])\s/)[0]!.slice(0, 120)
}

function claimResults(rng: () => number, t: ScenarioTemplate, turns: Turn[], passed: boolean): ClaimResult[] {
  const failing = passed ? -1 : Math.floor(rng() * t.judge.length)
  return t.judge.map((claim, i) =>
    i === failing || (!passed && rng() < 0.2)
      ? { claim, pass: false, reason: `Not shown in the dialogue: the agent moved on without this. Closest line: "${quote(turns, rng)}"` }
      : { claim, pass: true, reason: `The agent did this, e.g. "${quote(turns, rng)}"` },
  )
}

/** Check results that agree with the answers: a check meant to fail has its text taken out or put in. */
function checkResults(rng: () => number, t: ScenarioTemplate, turns: Turn[], passed: boolean): CheckResult[] {
  const failing = passed || t.judge.length > 0 ? -1 : Math.floor(rng() * t.checks.length)
  const last = [...turns].reverse().find((x) => x.role === 'agent' && !x.error)
  const answers = turns.filter((x) => x.role === 'agent' && !x.error)
  return t.checks.map((check, i) => {
    const pass = i !== failing
    const present = check.kind === 'not_contains' ? !pass : pass
    const literal = check.kind === 'regex' ? (t.regexExample ?? check.value) : check.value
    if (present && last && !answers.some((x) => x.text.includes(literal))) last.text += ` ${literal}`
    if (!present) for (const x of answers) x.text = x.text.split(literal).join('…')
    const verb = check.kind === 'regex' ? 'matches' : 'contains'
    const at = answers.findIndex((x) => x.text.includes(literal))
    const detail = present ? `answer ${at + 1} ${verb} it` : `no answer ${verb} it`
    return { kind: check.kind, value: check.value, pass, detail }
  })
}

function syntheticAttempt(o: Options, manifest: RunManifest, index: number, attemptNumber: number): Attempt {
  const rng = createRng(streamSeed(o.seed, index, attemptNumber))
  const { template } = templateFor(index)
  const scenario = manifest.scenarios[index]!
  const roll = rng()
  const outcome: Outcome =
    roll < o.agentErrorRate ? 'agent_error' : roll < o.agentErrorRate + o.noVerdictRate ? 'no_verdict' : rng() < o.passProbability(index, scenario.id) ? 'passed' : 'failed'
  const { turns, brokeAt } = dialogue(rng, template, o, outcome)
  const graded = outcome === 'passed' || outcome === 'failed'
  const claims = graded ? claimResults(rng, template, turns, outcome === 'passed') : []
  const checks = outcome === 'agent_error' ? [] : checkResults(rng, template, turns, outcome !== 'failed')
  const userTurns = turns.filter((x) => x.role === 'user').length
  const chars = turns.reduce((n, x) => n + x.text.length, 0)
  const user = template.script ? null : modelUse('gpt-4.1-mini', userTurns, 400 * userTurns + chars / 4, 30 * userTurns, userTurns * 0.8, o.prices, [0.4, 1.6])
  const judgeCalls = template.judge.length > 0 && outcome !== 'agent_error'
  const judge = judgeCalls ? modelUse('gpt-4.1', 1, Math.round(600 + chars / 4), 60 * template.judge.length, 1.5 + rng() * 2, o.prices, [2, 8]) : null
  if (judge && outcome === 'no_verdict') judge.tries = 3
  const seconds = turns.reduce((n, x) => n + x.seconds, 0) + (judge?.seconds ?? 0)
  const agentTurns = turns.filter((x) => x.role === 'agent' && x.tokens)
  const started = new Date(new Date(manifest.startedAt).getTime() + (index * o.k + attemptNumber) * 900)
  return {
    scenario: scenario.id,
    attempt: attemptNumber,
    verdict: outcome,
    error:
      outcome === 'agent_error'
        ? `the agent failed turn ${brokeAt! + 1}: ${turns.at(-1)!.error}`
        : outcome === 'no_verdict'
          ? "the judge's answer was not valid JSON after 3 tries (bad_answer)"
          : null,
    claims,
    checks,
    turns,
    agentTokens: agentTurns.length
      ? { input: agentTurns.reduce((n, x) => n + x.tokens!.input, 0), output: agentTurns.reduce((n, x) => n + x.tokens!.output, 0) }
      : null,
    models: { user, judge },
    startedAt: started.toISOString(),
    seconds,
  }
}

/** Attempts one at a time, in the interleaved order a parallel run writes them. */
export function* syntheticAttempts(manifest: RunManifest, options: SyntheticRunOptions = {}): Generator<Attempt> {
  const o = withDefaults(options)
  const recorded = o.state === 'finished' ? manifest.scenarios.length * o.k : Math.floor((manifest.scenarios.length * o.k * 2) / 3)
  let produced = 0
  for (let a = 1; a <= o.k; a++) {
    for (let i = 0; i < manifest.scenarios.length; i++) {
      if (produced++ >= recorded) return
      yield syntheticAttempt(o, manifest, i, a)
    }
  }
}

export function syntheticRun(options: SyntheticRunOptions = {}): { manifest: RunManifest; attempts: Attempt[] } {
  const manifest = syntheticManifest(options)
  return { manifest, attempts: [...syntheticAttempts(manifest, options)] }
}

/** Writes run.json and attempts.jsonl under `resultsDir/<agent>/<stamp>_<hex>/`; returns the folder. */
export async function writeSyntheticRun(resultsDir: string, options: SyntheticRunOptions = {}): Promise<{ dir: string; manifest: RunManifest }> {
  const manifest = syntheticManifest(options)
  const dir = runDir(resultsDir, manifest.id)
  await mkdir(dir, { recursive: true })
  await writeFile(`${dir}/${RUN_FILE}`, `${JSON.stringify(manifest, null, 2)}\n`)
  const out = createWriteStream(`${dir}/${ATTEMPTS_FILE}`)
  for (const attempt of syntheticAttempts(manifest, options)) {
    if (!out.write(`${JSON.stringify(attempt)}\n`)) await once(out, 'drain')
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())))
  return { dir, manifest }
}

/** Writes a run made (or changed) in memory, as writeSyntheticRun writes its own: for runs a test edits first. */
export async function writeRunRecord(resultsDir: string, record: { manifest: RunManifest; attempts: readonly Attempt[] }): Promise<string> {
  const dir = runDir(resultsDir, record.manifest.id)
  await mkdir(dir, { recursive: true })
  await writeFile(`${dir}/${RUN_FILE}`, `${JSON.stringify(record.manifest, null, 2)}\n`)
  await writeFile(`${dir}/${ATTEMPTS_FILE}`, record.attempts.map((a) => `${JSON.stringify(a)}\n`).join(''))
  return dir
}
