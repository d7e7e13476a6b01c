import type { DialogueLine } from './dialogue.ts'
import type { Attempt, ClaimResult, CheckResult, EndedBy, ErrorKind, Tokens, Turn, UserReview } from '../../records/journal/records.ts'
import { ModelMeter } from '../../adapters/model-client/model-meter.ts'
import { agentTokensOf, tokensCostUsd } from '../../records/journal/attempt-facts.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'
import type { AgentFailure, NoVerdict } from './failures.ts'
import type { Message } from '../agents/agent.ts'

/** What the builder needs to price an attempt and to time it. */
export interface AttemptCosts {
  /** Dollars per million tokens by model name. */
  prices: Readonly<Record<string, readonly [number, number]>>
  /** Dollars per million of the agent's own tokens, when convy.yml prices it. */
  agentPrice?: readonly [number, number] | null
  userModel: string | undefined
  judgeModel: string | undefined
  reviewModel?: string | undefined
}

/**
 * One attempt as it is played: the turns recorded, the dialogue the models see, the history the agent
 * gets, each role's model calls, and the first failure. A failure after the first changes nothing:
 * the attempt is already decided by the first.
 */
export class AttemptBuilder {
  readonly turns: Turn[] = []
  readonly dialogue: DialogueLine[] = []
  readonly history: Message[] = []
  readonly meters = { user: new ModelMeter(), judge: new ModelMeter(), review: new ModelMeter() }
  failure: { verdict: 'agent_error' | 'no_verdict'; message: string; kind?: ErrorKind } | null = null
  /** The attempt's context as the agent gets it: the world's, then what set-up added (play/world/). */
  context: Record<string, unknown> = {}
  /** Checks decided by the world rather than on the answers: `stop_if` claims and `limits` (play/world/limits.ts). */
  readonly worldChecks: CheckResult[] = []
  /**
   * How the conversation ended: set by the turn loop when the dialogue ends, or by the first failure
   * that ends it earlier. A failure after that (closing, the judge) leaves it: the dialogue had ended.
   */
  endedBy: EndedBy | undefined
  /** The review of the simulated user's mistakes, when the attempt failed and was reviewed. */
  review: UserReview | null = null
  readonly #startedAt: Date
  readonly #started: number

  constructor(
    readonly scenario: Scenario,
    readonly attemptNumber: number,
    readonly clock: () => number,
    now: () => Date,
    /** Sees each turn the moment it is recorded (run --verbose). */
    private readonly onTurn: (turn: Turn) => void = () => {},
  ) {
    this.#startedAt = now()
    this.#started = clock()
  }

  userLine(text: string, seconds: number): void {
    this.#record({ role: 'user', text, seconds, tokens: null, error: null })
    this.history.push({ role: 'user', content: text })
    this.dialogue.push({ role: 'user', text })
  }

  agentLine(turn: Turn & { role: 'agent' }): void {
    this.#record(turn)
    this.history.push({ role: 'assistant', content: turn.text })
    this.dialogue.push(turn.toolCalls?.length ? { role: 'agent', text: turn.text, toolCalls: turn.toolCalls } : { role: 'agent', text: turn.text })
  }

  fail(failure: AgentFailure | NoVerdict): void {
    if (this.failure) return
    if ('turnError' in failure) {
      this.#record({ role: 'agent', text: '', seconds: failure.seconds, tokens: null, error: failure.turnError })
      this.failure = { verdict: 'agent_error', message: failure.message }
      this.endedBy ??= 'agent_error'
    } else {
      this.failure = { verdict: 'no_verdict', message: failure.message }
      this.endedBy ??= 'model_error'
    }
  }

  /** The world could not be made (set-up or tear-down failed, or left a key out): an agent_error that is not the agent's behaviour. */
  failSetup(message: string): void {
    if (this.failure) return
    this.failure = { verdict: 'agent_error', message, kind: 'setup' }
    this.endedBy ??= 'agent_error'
  }

  #record(turn: Turn): void {
    this.turns.push(turn)
    this.onTurn(turn)
  }

  finish(checks: CheckResult[], claims: ClaimResult[], costs: AttemptCosts): Attempt {
    const agentTokens = agentTokensOf(this.turns)
    const passed = checks.every((c) => c.pass) && claims.every((c) => c.pass)
    const failed = this.review?.decided ? 'user_error' : 'failed'
    // Nothing decided is not a pass: a judge-only scenario under --smoke proves nothing about the agent.
    const decided = checks.length + claims.length > 0
    const review = this.meters.review.toUse(costs.reviewModel, costs.prices)
    return {
      scenario: this.scenario.id,
      attempt: this.attemptNumber,
      verdict: this.failure ? this.failure.verdict : !decided ? 'not_decided' : passed ? 'passed' : failed,
      error: this.failure?.message ?? null,
      ...(this.failure?.kind ? { errorKind: this.failure.kind } : {}),
      ...(Object.keys(this.context).length > 0 ? { context: this.context } : {}),
      claims,
      checks,
      turns: this.turns,
      ...(this.endedBy ? { endedBy: this.endedBy } : {}),
      ...(this.review ? { review: this.review } : {}),
      agentTokens,
      ...(costs.agentPrice && agentTokens ? { agentCostUsd: tokensCostUsd(agentTokens, costs.agentPrice) } : {}),
      models: {
        user: this.meters.user.toUse(costs.userModel, costs.prices),
        judge: this.meters.judge.toUse(costs.judgeModel, costs.prices),
        ...(review ? { review } : {}),
      },
      startedAt: this.#startedAt.toISOString(),
      seconds: (this.clock() - this.#started) / 1000,
    }
  }
}

export function tokensOf(usage: { input?: number; output?: number } | undefined): Tokens | null {
  if (!usage || (usage.input === undefined && usage.output === undefined)) return null
  const count = (n: number | undefined) => (Number.isFinite(n) && n! > 0 ? Math.round(n!) : 0)
  return { input: count(usage.input), output: count(usage.output) }
}
