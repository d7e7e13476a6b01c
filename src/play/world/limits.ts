import type { CheckResult, Turn } from '../../records/journal/records.ts'
import { agentTokensOf, tokensCostUsd } from '../../records/journal/attempt-facts.ts'
import type { Limits } from '../../records/scenario/world.ts'

/**
 * Limits per attempt (`limits:`): each one set is a check of its own, kind `limit`, that says the
 * figure and the limit whether it held or not. `answer_ms` is the slowest answer; `attempt_ms` the
 * attempt from its set-up to its last answer; `agent_tokens` the agent's tokens, in and out;
 * `cost_usd` what those tokens cost at the agent's `price` in convy.yml (convy-ci's own models are
 * not the agent's doing, and are left out).
 */
export const LIMIT_KIND = 'limit'

const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 6 })

export interface AttemptFigures {
  turns: readonly Turn[]
  /** Milliseconds from the attempt's start (its set-up) to the end of its dialogue. */
  elapsedMs: number
  /** Dollars per million of the agent's tokens, [input, output], when convy.yml prices it. */
  agentPrice: readonly [number, number] | null | undefined
}

export function limitChecks(limits: Limits, figures: AttemptFigures): CheckResult[] {
  const checks: CheckResult[] = []
  const tokens = agentTokensOf(figures.turns)
  if (limits.answerMs !== undefined) checks.push(answerCheck(limits.answerMs, figures.turns))
  if (limits.attemptMs !== undefined) {
    const pass = figures.elapsedMs <= limits.attemptMs
    checks.push(check('attempt_ms', limits.attemptMs, pass, `the attempt ${pass ? 'took' : 'ran'} ${number.format(figures.elapsedMs)} ms, limit ${number.format(limits.attemptMs)} ms`))
  }
  if (limits.agentTokens !== undefined) {
    const used = tokens && tokens.input + tokens.output
    checks.push(
      used === null
        ? check('agent_tokens', limits.agentTokens, false, 'the agent reported no tokens, so the limit cannot be checked (convy.yml: `tokens:` for a JSON agent)')
        : check('agent_tokens', limits.agentTokens, used <= limits.agentTokens, `the agent used ${number.format(used)} tokens, limit ${number.format(limits.agentTokens)}`),
    )
  }
  if (limits.costUsd !== undefined) {
    const price = figures.agentPrice
    const cost = tokens && price ? tokensCostUsd(tokens, price) : null
    checks.push(
      cost === null
        ? check('cost_usd', limits.costUsd, false, price ? 'the agent reported no tokens, so its cost cannot be checked' : "the agent has no `price` in convy.yml, so its cost cannot be checked")
        : check('cost_usd', limits.costUsd, cost <= limits.costUsd, `the agent's tokens cost ${dollars.format(cost)}, limit ${dollars.format(limits.costUsd)}`),
    )
  }
  return checks
}

/**
 * Whether the attempt is past a limit that ends it at once (the attempt's time, the agent's tokens),
 * asked after each answer: a conversation past its limit costs no more turns.
 */
export function limitPassed(limits: Limits, figures: Omit<AttemptFigures, 'agentPrice'>): boolean {
  if (limits.attemptMs !== undefined && figures.elapsedMs > limits.attemptMs) return true
  const tokens = agentTokensOf(figures.turns)
  return limits.agentTokens !== undefined && tokens !== null && tokens.input + tokens.output > limits.agentTokens
}

function answerCheck(limitMs: number, turns: readonly Turn[]): CheckResult {
  const answers = turns.filter((turn) => turn.role === 'agent' && turn.error === null)
  const over = answers.map((turn, i) => ({ n: i + 1, ms: turn.seconds * 1000 })).filter((answer) => answer.ms > limitMs)
  if (over.length > 0) {
    const first = over[0]!
    const more = over.length > 1 ? ` (${over.length} answers past it)` : ''
    return check('answer_ms', limitMs, false, `answer ${first.n} took ${number.format(first.ms)} ms, limit ${number.format(limitMs)} ms${more}`)
  }
  if (answers.length === 0) return check('answer_ms', limitMs, true, 'the agent gave no answer')
  const slowest = Math.max(...answers.map((turn) => turn.seconds * 1000))
  return check('answer_ms', limitMs, true, `the slowest answer took ${number.format(slowest)} ms, limit ${number.format(limitMs)} ms`)
}

function check(name: string, limit: number, pass: boolean, detail: string): CheckResult {
  return { kind: LIMIT_KIND, value: `${name}: ${limit}`, pass, detail }
}
