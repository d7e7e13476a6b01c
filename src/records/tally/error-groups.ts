import type { ScenarioTally } from './run-tally.ts'

/** The attempts that ended in an error of the agent, or of convy-ci's models (no verdict). */
export type ErrorVerdict = 'agent_error' | 'no_verdict'

/** Where an error came from: the verdict, or the set-up (an agent_error of kind `setup`, not the agent's). */
export type ErrorSource = ErrorVerdict | 'setup_error'

/** How each kind is named where the errors are quoted: the summary, the progress, the comment, the report. */
export const ERROR_LABEL: Record<ErrorSource, string> = { agent_error: 'agent error', no_verdict: 'no verdict', setup_error: 'set-up error' }

/** An attempt's error source: its verdict, unless its set-up failed. */
export function errorSource(attempt: { verdict: ErrorVerdict; errorKind?: string | undefined }): ErrorSource {
  return attempt.errorKind === 'setup' ? 'setup_error' : attempt.verdict
}

export function isErrorVerdict(verdict: string): verdict is ErrorVerdict {
  return verdict === 'agent_error' || verdict === 'no_verdict'
}

/** How many distinct messages are quoted wherever errors are shown; the report has every attempt's. */
export const ERRORS_QUOTED = 3

/** Attempts that failed with the same message. */
export interface ErrorGroup {
  verdict: ErrorSource
  message: string
  attempts: number
}

/**
 * A run's errors grouped by their message, most frequent first (ties in the order first seen). An
 * agent that is not up, or a key the gateway refuses, fails every attempt the same way: one group says
 * what a column of counts cannot. The "turn N:" prefix is left out of the grouping, since the same
 * failure at another turn is the same failure. Messages are the agents' and servers' words: whoever
 * shows them escapes them for where they go.
 */
export function errorGroups(scenarios: Iterable<ScenarioTally>, verdicts: readonly ErrorVerdict[] = ['agent_error', 'no_verdict']): ErrorGroup[] {
  const groups = new Map<string, ErrorGroup>()
  for (const scenario of scenarios) {
    for (const attempt of scenario.attempts) {
      const verdict = attempt.verdict
      if (!isErrorVerdict(verdict) || !verdicts.includes(verdict)) continue
      const source = errorSource({ verdict, errorKind: attempt.errorKind })
      const message = groupedMessage(attempt.error)
      const key = errorKey(source, message)
      const group = groups.get(key)
      if (group) group.attempts++
      else groups.set(key, { verdict: source, message, attempts: 1 })
    }
  }
  // Array.prototype.sort is stable: equal counts keep the order they were first seen in.
  return [...groups.values()].sort((a, b) => b.attempts - a.attempts)
}

/** The groups to quote, and what is left of the others: how many messages, over how many attempts. */
export function quotedErrors(groups: readonly ErrorGroup[]): { quoted: ErrorGroup[]; otherMessages: number; otherAttempts: number } {
  const others = groups.slice(ERRORS_QUOTED)
  return { quoted: groups.slice(0, ERRORS_QUOTED), otherMessages: others.length, otherAttempts: others.reduce((sum, g) => sum + g.attempts, 0) }
}

/** An attempt's error as it is grouped: without the turn it happened at. */
export function groupedMessage(error: string | null): string {
  return (error ?? 'no message recorded').replace(/^turn \d+: /, '')
}

/** Errors with the same key are one group. */
export function errorKey(verdict: ErrorSource, message: string): string {
  return `${verdict} ${message}`
}
