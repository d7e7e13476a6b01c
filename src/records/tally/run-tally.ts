import { agentCostUsd, answers, countVerdict, harnessCostUsd, worldFacts, type WorldFacts } from '../journal/attempt-facts.ts'
import { emptyVerdictCounts, type VerdictCounts } from '../journal/verdict-counts.ts'
import type { Attempt, CheckResult, ClaimResult, EndedBy, RunManifest, Tokens, UserReview, Verdict } from '../journal/records.ts'
import { checkText, type Scenario } from '../scenario/scenario.ts'
import { endStateText } from '../scenario/tools.ts'
import { capped } from '../../base/shared/text.ts'
import { judgeNoise, type JudgeNoise, type Judgements } from '../../base/stats/judge-noise.ts'
import { attemptCalls } from '../journal/tool-evidence.ts'

/**
 * The one count of a run, made in a single pass over its attempts: what the report, the comparison,
 * the action's outputs and the terminal summary all read. Per scenario it keeps counts, each claim's
 * and check's record, and a short digest of each attempt with a slot for its dialogue; never the
 * turns themselves, so a run of any size is counted in bounded memory.
 */

/** A run in memory: its run.json and its attempts. Tests and the library build these; commands stream run folders instead. */
export interface RunRecord {
  manifest: RunManifest
  attempts: readonly Attempt[]
}

export { scenarioStatus, type ScenarioStatus } from './scenario-status.ts'

/**
 * Where an attempt's dialogue lives on a page: written out in place, or embedded as data to draw
 * (with the attempt's decisions too, when `decisions`). The tally only carries the slot; the page
 * decides what goes in it.
 */
export type DialogueSlot = { kind: 'inline'; markup: string } | { kind: 'lazy'; id: string; decisions: boolean } | { kind: 'none' }

export interface AttemptDigest extends WorldFacts {
  attempt: number
  verdict: Verdict
  error: string | null
  claims: ClaimResult[]
  checks: CheckResult[]
  /** The user's messages, as max_turns counts them. */
  turns: number
  /** How the conversation ended; null in runs from before it was recorded. */
  endedBy: EndedBy | null
  /** The review of the simulated user's mistakes, when the attempt failed and was reviewed. */
  review: UserReview | null
  /** Where the conversation broke: the first failed turn, as the nth (1-based) line of its speaker. */
  failedTurn: { role: 'user' | 'agent'; nth: number } | null
  agentSeconds: number
  /** The agent's answers (turns that did not fail): agentSeconds / answers is the attempt's answer time. */
  answers: number
  /** Of those, the answers that streamed, and the sum of their times to first token. */
  firstTokens: number
  firstTokenSeconds: number
  agentTokens: Tokens | null
  seconds: number
  startedAt: string
  /** convy-ci's models' dollars (attempt-facts.ts `harnessCostUsd`) and the agent's own (`agentCostUsd`); null where unpriced. */
  costUsd: number | null
  agentCostUsd: number | null
  /** convy-ci's model calls answered from the model cache (no request, no cost): such an attempt's dollars are not compared. */
  cachedModelCalls: number
  dialogue: DialogueSlot
  /**
   * The tools the agent called over the attempt, in order, names and arguments (bounded,
   * toolCallDigests below): what a comparison's tool-use changes are counted from (verdict/tool-use.ts).
   */
  toolCalls: ToolCallDigest[]
}

export interface ClaimHolding {
  held: number
  decided: number
  /** Decisions made by more than one judge sample, and the sum of their chance that two samples disagree. */
  sampled?: number
  disagreement?: number
}

/** A scenario's attempts counted by verdict (VerdictCounts), with what the report shows of them. */
export interface ScenarioTally extends VerdictCounts {
  id: string
  /** The scenario as played, from run.json; null when attempts name a scenario run.json lacks. */
  scenario: Scenario | null
  attempts: AttemptDigest[]
  /** By claim text, in the scenario's order. */
  claims: Map<string, ClaimHolding>
  /** By `kind value`, in the scenario's order. */
  checks: Map<string, ClaimHolding & { kind: string; value: string }>
  /** Per attempt judged by several judge samples: in how many of them it would have passed (stats/judge-noise.ts). */
  judgements: Judgements[]
  answers: number
  answerSeconds: number
  slowestAnswer: number
  /** Answers that streamed, and their times to first token. */
  firstTokens: number
  firstTokenSeconds: number
  tokenAttempts: number
  tokensIn: number
  tokensOut: number
  /** convy-ci's models' dollars over the attempts that had a price, and how many had one; the agent's own the same. */
  costUsd: number
  costedAttempts: number
  agentCostUsd: number
  agentCostedAttempts: number
}

export interface SlowestAnswer {
  seconds: number
  scenario: string
  attempt: number
}

export interface RunTally {
  manifest: RunManifest
  /** In run.json's order, then any scenario only the attempts name. */
  scenarios: Map<string, ScenarioTally>
  attempts: number
  /** Of those, replays of a user_error attempt with a fresh simulated user (`replayOf`): played beyond k. */
  replays: number
  /** Attempts naming a scenario that run.json does not list: shown by the report, left out of a comparison. */
  unknownScenarioAttempts: number
  /** Lines of attempts.jsonl that were not a complete attempt (a torn last line), left out and said so. */
  skippedLines: number
  slowest: SlowestAnswer | null
  costUsd: number
  /** Attempts whose models reported a cost; without prices there is none. */
  costedAttempts: number
  /** Calls to convy-ci's models (simulated user, judge, review) over all attempts: what adaptive attempts save (issue 39). */
  modelCalls: number
}

function checkKey(kind: string, value: string): string {
  return `${kind} ${value}`
}

function emptyScenario(id: string, scenario: Scenario | null): ScenarioTally {
  const tally: ScenarioTally = {
    id,
    scenario,
    attempts: [],
    ...emptyVerdictCounts(),
    claims: new Map(),
    checks: new Map(),
    judgements: [],
    ...{ answers: 0, answerSeconds: 0, slowestAnswer: 0, firstTokens: 0, firstTokenSeconds: 0 },
    ...{ tokenAttempts: 0, tokensIn: 0, tokensOut: 0, costUsd: 0, costedAttempts: 0, agentCostUsd: 0, agentCostedAttempts: 0 },
  }
  for (const claim of scenario?.judge ?? []) tally.claims.set(claim, { held: 0, decided: 0 })
  for (const check of scenario?.checks ?? []) tally.checks.set(checkKey(check.kind, checkText(check)), { kind: check.kind, value: checkText(check), held: 0, decided: 0 })
  for (const check of scenario?.endState ?? []) tally.checks.set(checkKey(check.kind, endStateText(check)), { kind: check.kind, value: endStateText(check), held: 0, decided: 0 })
  return tally
}

export function startTally(manifest: RunManifest): RunTally {
  const scenarios = new Map<string, ScenarioTally>()
  for (const scenario of manifest.scenarios) scenarios.set(scenario.id, emptyScenario(scenario.id, scenario))
  return { manifest, scenarios, attempts: 0, replays: 0, unknownScenarioAttempts: 0, skippedLines: 0, slowest: null, costUsd: 0, costedAttempts: 0, modelCalls: 0 }
}

export function addAttempt(tally: RunTally, attempt: Attempt, dialogue: DialogueSlot = { kind: 'none' }): AttemptDigest {
  let scenario = tally.scenarios.get(attempt.scenario)
  if (!scenario) {
    scenario = emptyScenario(attempt.scenario, null)
    tally.scenarios.set(attempt.scenario, scenario)
  }
  tally.attempts++
  if (attempt.replayOf !== undefined) tally.replays++
  if (scenario.scenario === null) tally.unknownScenarioAttempts++
  countVerdict(scenario, attempt.verdict, attempt.errorKind)
  countDecisions(scenario, attempt)
  const { agentSeconds, firstTokens, firstTokenSeconds } = countAnswers(tally, scenario, attempt)
  if (attempt.agentTokens) {
    scenario.tokenAttempts++
    scenario.tokensIn += attempt.agentTokens.input
    scenario.tokensOut += attempt.agentTokens.output
  }
  tally.modelCalls += (attempt.models.user?.calls ?? 0) + (attempt.models.judge?.calls ?? 0) + (attempt.models.review?.calls ?? 0)
  const [costUsd, agentUsd] = [harnessCostUsd(attempt), agentCostUsd(attempt)]
  if (costUsd !== null) {
    tally.costUsd += costUsd
    tally.costedAttempts++
    scenario.costUsd += costUsd
    scenario.costedAttempts++
  }
  if (agentUsd !== null) [scenario.agentCostUsd, scenario.agentCostedAttempts] = [scenario.agentCostUsd + agentUsd, scenario.agentCostedAttempts + 1]
  const digest: AttemptDigest = {
    attempt: attempt.attempt,
    verdict: attempt.verdict,
    error: attempt.error === null ? null : capped(attempt.error),
    ...worldFacts(attempt),
    claims: attempt.claims.map((c) => ({ claim: capped(c.claim, 1_000), pass: c.pass, reason: capped(c.reason), ...(c.votes ? { votes: c.votes } : {}) })),
    checks: attempt.checks.map((c) => ({ kind: c.kind, value: capped(c.value, 1_000), pass: c.pass, detail: capped(c.detail) })),
    turns: attempt.turns.filter((turn) => turn.role === 'user').length,
    endedBy: attempt.endedBy ?? null,
    review: attempt.review ? cappedReview(attempt.review) : null,
    failedTurn: failedTurn(attempt),
    agentSeconds,
    answers: answers(attempt.turns).length,
    firstTokens,
    firstTokenSeconds,
    agentTokens: attempt.agentTokens,
    seconds: attempt.seconds,
    startedAt: attempt.startedAt,
    costUsd,
    agentCostUsd: agentUsd,
    cachedModelCalls: (attempt.models.user?.cachedCalls ?? 0) + (attempt.models.judge?.cachedCalls ?? 0) + (attempt.models.review?.cachedCalls ?? 0),
    dialogue,
    toolCalls: toolCallDigests(attempt),
  }
  scenario.attempts.push(digest)
  return digest
}

function cappedReview(review: UserReview): UserReview {
  return { ...review, mistakes: review.mistakes.map((m) => ({ ...m, note: capped(m.note) })), reason: capped(review.reason), error: review.error === null ? null : capped(review.error) }
}

function countDecisions(scenario: ScenarioTally, attempt: Attempt): void {
  for (const claim of attempt.claims) {
    const holding = scenario.claims.get(claim.claim) ?? { held: 0, decided: 0 }
    holding.decided++
    if (claim.pass) holding.held++
    const votes = claim.votes ?? []
    if (votes.length >= 2) {
      const yes = votes.filter(Boolean).length
      holding.sampled = (holding.sampled ?? 0) + 1
      holding.disagreement = (holding.disagreement ?? 0) + (2 * yes * (votes.length - yes)) / (votes.length * (votes.length - 1))
    }
    scenario.claims.set(claim.claim, holding)
  }
  const judged = sampleJudgements(attempt)
  if (judged) scenario.judgements.push(judged)
  for (const check of attempt.checks) {
    const key = checkKey(check.kind, check.value)
    const holding = scenario.checks.get(key) ?? { kind: check.kind, value: check.value, held: 0, decided: 0 }
    holding.decided++
    if (check.pass) holding.held++
    scenario.checks.set(key, holding)
  }
}

/**
 * In how many judge samples the attempt would have passed: every check, and every claim's vote of
 * that sample. Null unless every claim was judged by the same m ≥ 2 samples.
 */
function sampleJudgements(attempt: Attempt): Judgements | null {
  if (attempt.claims.length === 0 || (attempt.verdict !== 'passed' && attempt.verdict !== 'failed')) return null
  const samples = attempt.claims[0]!.votes?.length ?? 0
  if (samples < 2 || attempt.claims.some((c) => c.votes?.length !== samples)) return null
  const checksPass = attempt.checks.every((c) => c.pass)
  let passes = 0
  for (let s = 0; s < samples; s++) if (checksPass && attempt.claims.every((c) => c.votes![s])) passes++
  return { passes, samples }
}

/** The judge's noise against the agent's flakiness in a scenario; null without judge samples. */
export function scenarioJudgeNoise(scenario: Pick<ScenarioTally, 'judgements'>): JudgeNoise | null {
  return judgeNoise(scenario.judgements)
}

/** Counts the agent's answers; returns the attempt's time spent answering, and its streamed answers' times to first token. */
function countAnswers(tally: RunTally, scenario: ScenarioTally, attempt: Attempt): { agentSeconds: number; firstTokens: number; firstTokenSeconds: number } {
  let agentSeconds = 0
  let firstTokens = 0
  let firstTokenSeconds = 0
  for (const turn of answers(attempt.turns)) {
    agentSeconds += turn.seconds
    scenario.answers++
    scenario.answerSeconds += turn.seconds
    scenario.slowestAnswer = Math.max(scenario.slowestAnswer, turn.seconds)
    if (turn.firstTokenSeconds !== undefined) {
      scenario.firstTokens++
      scenario.firstTokenSeconds += turn.firstTokenSeconds
      firstTokens++
      firstTokenSeconds += turn.firstTokenSeconds
    }
    if (!tally.slowest || turn.seconds > tally.slowest.seconds) tally.slowest = { seconds: turn.seconds, scenario: attempt.scenario, attempt: attempt.attempt }
  }
  return { agentSeconds, firstTokens, firstTokenSeconds }
}

function failedTurn(attempt: Attempt): AttemptDigest['failedTurn'] {
  const spoken = { user: 0, agent: 0 }
  for (const turn of attempt.turns) {
    spoken[turn.role]++
    if (turn.error !== null) return { role: turn.role, nth: spoken[turn.role] }
  }
  return null
}

/** Attempts arrive in the order they ended; pages list them by number. */
export function finishTally(tally: RunTally): RunTally {
  for (const scenario of tally.scenarios.values()) scenario.attempts.sort((a, b) => a.attempt - b.attempt)
  return tally
}

/** A run held in memory, counted; `dialogue` fills each attempt's slot for a page. */
export function tallyRecord(record: RunRecord, dialogue?: (attempt: Attempt) => DialogueSlot): RunTally {
  const tally = startTally(record.manifest)
  for (const attempt of record.attempts) addAttempt(tally, attempt, dialogue?.(attempt))
  return finishTally(tally)
}

/** A tool call as a tally keeps it: the name, and the arguments when their JSON is short. */
export interface ToolCallDigest {
  name: string
  arguments?: unknown
  /** Served by convy-ci's tools (play/tools/), reported by the agent or not. */
  served?: true
  /** The fault injected on purpose into a served call: `call 1: error "upstream timeout"`. */
  fault?: string
}

/**
 * Per attempt, at most this many calls; arguments whose JSON is longer are left out: a document is
 * not an argument a comparison can count, and a tally stays small whatever the agent sent.
 */
export const DIGEST_TOOL_CALLS = 50
export const DIGEST_ARGUMENTS_CHARS = 1_000

/**
 * The tools an attempt's answers called, in order, bounded as above: reported and served, each call
 * once (tool-evidence.ts). Results are not kept: the dialogue has them.
 */
export function toolCallDigests(attempt: Attempt): ToolCallDigest[] {
  const calls = attemptCalls(attempt.turns, attempt.tools?.calls).flat()
  return calls.slice(0, DIGEST_TOOL_CALLS).map((call) => {
    const json = call.arguments === undefined ? undefined : JSON.stringify(call.arguments)
    const name = capped(call.name, 200)
    const marks = { ...(call.served ? { served: true as const } : {}), ...(call.fault === undefined ? {} : { fault: capped(call.fault, 200) }) }
    return json !== undefined && json.length <= DIGEST_ARGUMENTS_CHARS ? { name, arguments: call.arguments, ...marks } : { name, ...marks }
  })
}
