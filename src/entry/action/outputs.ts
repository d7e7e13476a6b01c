import type { AgentOutcome, OutcomeVerdict } from './publish-agent.ts'

/** Most telling first: with several agents, `verdict` is the first of these that any agent has. */
const VERDICT_ORDER: readonly OutcomeVerdict[] = ['worse', 'inconclusive', 'better', 'within-noise', 'no-baseline']

/**
 * The step's outputs. With one agent each is a single value; with several, run-id, pass-rate,
 * report-url and comment-url have a line per agent (in the order of the agent input, empty where
 * there is none), and `results` has them all as JSON.
 */
export function actionOutputs(outcomes: readonly AgentOutcome[]): Record<string, string> {
  const lines = (value: (o: AgentOutcome) => string | null) => outcomes.map((o) => value(o) ?? '').join('\n')
  return {
    'run-id': lines((o) => o.runId),
    'pass-rate': lines((o) => (o.passRate === null ? null : String(Math.round(o.passRate * 10_000) / 10_000))),
    verdict: VERDICT_ORDER.find((v) => outcomes.some((o) => o.verdict === v)) ?? '',
    // Which inconclusive, told apart: evidence-missing (fails by default) or too-little-to-tell (neutral).
    inconclusive: lines((o) => o.inconclusive ?? null),
    'report-url': lines((o) => o.reportUrl),
    'comment-url': lines((o) => o.commentUrl),
    results: JSON.stringify(
      outcomes.map((o) => ({ agent: o.agent, 'run-id': o.runId, 'pass-rate': o.passRate, verdict: o.verdict, inconclusive: o.inconclusive ?? null, 'report-url': o.reportUrl, 'comment-url': o.commentUrl })),
    ),
  }
}
