import * as z from '../../base/shared/zod.ts'
import { capped } from '../../base/shared/text.ts'
import type { AttemptDigest, RunTally } from './run-tally.ts'
import { answerSecondsOf } from './answer-time.ts'

/**
 * A run in a few kilobytes: what the default branch's trend is drawn from (docs/trend.md). The action
 * uploads one beside every run artifact, so a pull request reads the last N runs of main without
 * downloading their run folders. Read back from artifacts anyone on the branch could have written: it
 * is parsed here, once, bounded, and a summary that does not parse is left out, never fatal.
 *
 * Versioned: `format` changes only when a reader of the old format would misread the new one; fields
 * added later are ignored by older readers (zod drops keys a schema does not name).
 */
export const SUMMARY_FORMAT = 1
/** The file inside the summary artifact. */
export const SUMMARY_FILE = 'summary.json'
/** A summary of 1,000 scenarios is about 120 KB; anything larger is not one of ours. */
export const SUMMARY_MAX_BYTES = 256 * 1024
/** More scenarios than this and the summary is refused whole (bounded work for a hostile one). */
const MAX_SCENARIOS = 2_000

const count = z.int().check(z.nonnegative())
const amount = z.nullable(z.number().check(z.nonnegative()))
const text = (max: number) => z.string().check(z.maxLength(max))

export const ScenarioSummarySchema = z.object({
  id: text(1_000),
  /** Attempts played, whatever their verdict. */
  attempts: count,
  passed: count,
  /** Passed or failed: the pass rate's denominator, as the report counts it. */
  judged: count,
  /** Attempts where the agent failed a turn. */
  errors: count,
  /** Attempts convy-ci's own models could not decide. */
  noVerdicts: count,
  /** The median over attempts of the agent's mean answer time (agent errors left out, run-tally.ts); null without an answer. */
  medianAnswerSeconds: amount,
  /** Dollars of the attempts that had a price; null when none had. */
  costUsd: amount,
})
export type ScenarioSummary = z.infer<typeof ScenarioSummarySchema>

export const RunSummarySchema = z.object({
  format: z.literal(SUMMARY_FORMAT),
  /** The run's id, `<agent>/<started>_<4 hex>`. */
  run: text(300),
  agent: text(200),
  commit: z.nullable(text(100)),
  branch: z.nullable(text(300)),
  startedAt: text(40),
  finishedAt: z.nullable(text(40)),
  state: text(40),
  /** Attempts per scenario the run was played with. */
  k: count,
  scenarios: z.array(ScenarioSummarySchema).check(z.maxLength(MAX_SCENARIOS)),
  /** The same over every attempt of the scenarios run.json lists; null without an answer. */
  medianAnswerSeconds: amount,
  costUsd: amount,
})
export type RunSummary = z.infer<typeof RunSummarySchema>

/** A run's summary, from its tally. */
export function summarizeRun(tally: RunTally): RunSummary {
  const { manifest } = tally
  const scenarios: ScenarioSummary[] = []
  for (const s of tally.scenarios.values()) {
    if (s.attempts.length === 0 || s.scenario === null) continue
    scenarios.push({
      id: s.id,
      attempts: s.attempts.length,
      passed: s.passed,
      judged: s.passed + s.failed,
      errors: s.agentErrors,
      noVerdicts: s.noVerdicts,
      medianAnswerSeconds: rounded(answerSecondsOf(s.attempts)),
      costUsd: s.costedAttempts ? rounded(s.costUsd, 6) : null,
    })
  }
  return {
    format: SUMMARY_FORMAT,
    run: manifest.id,
    agent: manifest.agent.name,
    commit: manifest.ci?.commit ?? null,
    branch: manifest.ci?.branch ?? null,
    startedAt: manifest.startedAt,
    finishedAt: manifest.finishedAt,
    state: manifest.state,
    k: manifest.settings.k,
    scenarios,
    medianAnswerSeconds: rounded(answerSecondsOf(listedAttempts(tally))),
    costUsd: tally.costedAttempts ? rounded(tally.costUsd, 6) : null,
  }
}

/** The attempts of the scenarios run.json lists: a run summary speaks for those. */
function* listedAttempts(tally: RunTally): Iterable<AttemptDigest> {
  for (const s of tally.scenarios.values()) if (s.scenario !== null) yield* s.attempts
}

/** The summary as written: compact JSON, one line. */
export function summaryJson(summary: RunSummary): string {
  return `${JSON.stringify(summary)}\n`
}

/** A summary read back, or why it was left out (said in the log, never thrown). */
export type ParsedSummary = { summary: RunSummary } | { problem: string }

export function parseRunSummary(bytes: Buffer | string): ParsedSummary {
  const size = typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.length
  if (size > SUMMARY_MAX_BYTES) return { problem: `it is ${size} bytes; a summary is at most ${SUMMARY_MAX_BYTES}` }
  let json: unknown
  try {
    json = JSON.parse(bytes.toString())
  } catch {
    return { problem: 'it is not JSON' }
  }
  const format = typeof json === 'object' && json !== null && 'format' in json ? (json as { format: unknown }).format : undefined
  if (typeof format === 'number' && format !== SUMMARY_FORMAT) return { problem: `it is of format ${format}; this convy-ci reads format ${SUMMARY_FORMAT}` }
  const parsed = RunSummarySchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return { problem: `it is not a run summary (${issue ? `${issue.path.slice(0, 4).join('.') || 'top'}: ${issue.message}` : 'invalid'})` }
  }
  const ids = new Set<string>()
  for (const s of parsed.data.scenarios) {
    if (s.passed > s.judged || s.judged > s.attempts) return { problem: `scenario counts that do not add up (${capped(s.id, 60)})` }
    if (ids.has(s.id)) return { problem: `scenario ${capped(s.id, 60)} twice` }
    ids.add(s.id)
  }
  return { summary: parsed.data }
}


function rounded(value: number | null, digits = 3): number | null {
  return value === null ? null : Number(value.toFixed(digits))
}
