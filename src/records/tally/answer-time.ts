import { median } from '../../base/stats/quantile.ts'

/** What an attempt's times are read from (run-tally.ts's AttemptDigest has it). */
export interface TimedAttempt {
  verdict: string
  /** The agent's answers (turns that did not fail), and the seconds they took together. */
  answers: number
  agentSeconds: number
}

export interface StreamedAttempt {
  verdict: string
  /** The answers that streamed, and the sum of their times to first token. */
  firstTokens: number
  firstTokenSeconds: number
}

/**
 * An attempt's answer time — the mean of its answers' times — as every surface gives it (report,
 * terminal, compare page, comment, run summaries, the speed test): null for an agent error (its time
 * says how it broke, not how fast the agent answers) and for an attempt without an answer.
 */
export function attemptAnswerSeconds(attempt: TimedAttempt): number | null {
  return attempt.verdict !== 'agent_error' && attempt.answers > 0 ? attempt.agentSeconds / attempt.answers : null
}

/** An attempt's time to first token: the mean over its answers that streamed; null for an agent error and without one. */
export function attemptFirstTokenSeconds(attempt: StreamedAttempt): number | null {
  return attempt.verdict !== 'agent_error' && attempt.firstTokens > 0 ? attempt.firstTokenSeconds / attempt.firstTokens : null
}

/** The time to first token of some attempts: the median of theirs, as for the answer time. */
export function firstTokenSecondsOf(attempts: Iterable<StreamedAttempt>): number | null {
  return medianOver(attempts, attemptFirstTokenSeconds)
}

/** The answer time of some attempts: the median of theirs, so that one slow conversation moves it as little as it should. */
export function answerSecondsOf(attempts: Iterable<TimedAttempt>): number | null {
  return medianOver(attempts, attemptAnswerSeconds)
}

function medianOver<A>(attempts: Iterable<A>, timeOf: (attempt: A) => number | null): number | null {
  const times: number[] = []
  for (const attempt of attempts) {
    const time = timeOf(attempt)
    if (time !== null) times.push(time)
  }
  return median(times)
}
