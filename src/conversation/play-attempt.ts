import type { Agent, Conversation, Message } from '../agents/agent.ts'
import type { Attempt, ClaimResult, EndedBy, ModelUse, Tokens, Turn, Verdict } from '../journal/records.ts'
import { answers } from '../journal/attempt-facts.ts'
import { brokenFatalCheck, runChecks } from '../judge/checks.ts'
import type { DialogueLine, Judge, SimulatedUser } from './roles.ts'
import type { CallRecord, ModelCallContext } from '../model-client/model-call.ts'
import { scenarioFingerprint, userSource, type Scenario } from '../scenario/scenario.ts'
import { errorMessage } from '../shared/errors.ts'
import { maskDeep, type Mask } from '../shared/secrets.ts'
import { withStepTimeout } from './step-timeout.ts'

/** What --smoke sends to an agent whose scenario has no script. */
export const SMOKE_GREETING = 'Hello!'

export interface PlayDependencies {
  agent: Agent
  user: SimulatedUser | null
  judge: Judge | null
  smoke: boolean
  turnTimeoutSeconds: number
  /** Dollars per million tokens by model name. */
  prices: Readonly<Record<string, readonly [number, number]>>
  /** Dollars per million of the agent's own tokens, when convy.yml prices it. */
  agentPrice?: readonly [number, number] | null
  mask: Mask
  /** Aborted when the run is interrupted; the attempt is then dropped, not recorded. */
  signal: AbortSignal
  /** Ask the judge about the claims (default); a replay with --no-judge decides the checks only. */
  judging?: boolean
  now?: () => Date
  clock?: () => number
}

/**
 * One attempt: a fresh conversation with the agent, the user's lines from the simulated user or the
 * script, then convy-ci's checks and the judge on the whole dialogue. Every failure is recorded and
 * classified: the agent's as agent_error, convy-ci's own models' as no_verdict. Only an interruption
 * throws.
 */
export async function playAttempt(
  scenario: Scenario,
  attemptNumber: number,
  session: string,
  deps: PlayDependencies,
  /** A replay: the user's lines of a recorded attempt, sent as they were. */
  replayLines?: readonly string[],
): Promise<Attempt> {
  const clock = deps.clock ?? (() => performance.now())
  const startedAt = (deps.now ?? (() => new Date()))()
  const started = clock()
  const turns: Turn[] = []
  const meters = { user: new ModelMeter(), judge: new ModelMeter() }
  const source: LineSource = replayLines ? { kind: 'replay', lines: replayLines } : { kind: userSource(scenario, deps.smoke) }
  // The model cache keeps each attempt's calls apart, and forgets them when the scenario is edited.
  const cacheScope = `${scenarioFingerprint(scenario)}#${attemptNumber}`
  let error: { verdict: 'agent_error' | 'no_verdict'; message: string } | null = null
  let endedBy: EndedBy | undefined

  // `since(t0)` gives the step's start to the step itself, so a streaming answer's first token is
  // timed from the same instant as the whole answer.
  const agentStep = async <T>(
    step: (signal: AbortSignal, since: () => number) => Promise<T> | T,
  ): Promise<{ value: T; seconds: number } | { error: string; seconds: number }> => {
    const t0 = clock()
    const since = () => (clock() - t0) / 1000
    try {
      const value = await withStepTimeout(deps.turnTimeoutSeconds, deps.signal, (signal) => step(signal, since))
      return { value, seconds: since() }
    } catch (cause) {
      throwIfInterrupted(deps.signal)
      return { error: deps.mask(errorMessage(cause)), seconds: since() }
    }
  }

  const opened = await agentStep((signal) => deps.agent.conversation({ session, signal }))
  let conversation: Conversation | undefined
  if ('error' in opened) {
    turns.push({ role: 'agent', text: '', seconds: opened.seconds, tokens: null, error: `opening the conversation failed: ${opened.error}` })
    error = { verdict: 'agent_error', message: `opening the conversation failed: ${opened.error}` }
  } else {
    conversation = opened.value
  }

  const history: Message[] = []
  const dialogue: DialogueLine[] = []
  const maxUserLines = source.kind === 'replay' ? source.lines.length : source.kind === 'script' ? scenario.script!.length : source.kind === 'greeting' ? 1 : scenario.maxTurns
  for (let index = 0; conversation && !error && index < maxUserLines; index++) {
    const line = await nextUserLine(scenario, source, index, dialogue, deps, { signal: deps.signal, record: meters.user.record, cacheScope }, clock)
    if ('error' in line) {
      error = { verdict: 'no_verdict', message: `the simulated user (${deps.user?.model}) failed: ${line.error}` }
      break
    }
    if (line.text === '') break
    turns.push({ role: 'user', text: line.text, seconds: line.seconds, tokens: null, error: null })
    const current = conversation
    let firstTokenSeconds: number | undefined
    const answered = await agentStep((signal, since) => {
      const firstToken = () => {
        firstTokenSeconds ??= since()
      }
      return current.answer(line.text, { session, signal, history: [...history], firstToken })
    })
    history.push({ role: 'user', content: line.text })
    dialogue.push({ role: 'user', text: line.text })
    if ('error' in answered) {
      turns.push({ role: 'agent', text: '', seconds: answered.seconds, tokens: null, error: answered.error })
      error = { verdict: 'agent_error', message: `turn ${index + 1}: ${answered.error}` }
      break
    }
    const text = typeof answered.value?.text === 'string' ? answered.value.text : null
    if (text === null) {
      const message = 'the agent answered without a `text` string'
      turns.push({ role: 'agent', text: '', seconds: answered.seconds, tokens: null, error: message })
      error = { verdict: 'agent_error', message: `turn ${index + 1}: ${message}` }
      break
    }
    const toolCalls = answered.value.toolCalls ?? []
    turns.push({
      role: 'agent',
      text,
      seconds: answered.seconds,
      tokens: tokensOf(answered.value.usage),
      error: null,
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
      ...(firstTokenSeconds === undefined ? {} : { firstTokenSeconds: Math.min(firstTokenSeconds, answered.seconds) }),
    })
    history.push({ role: 'assistant', content: text })
    dialogue.push(toolCalls.length > 0 ? { role: 'agent', text, toolCalls } : { role: 'agent', text })
    if (brokenFatalCheck(scenario.checks, text, toolCalls)) {
      endedBy = 'stop_check'
      break
    }
    if (line.stop) break
  }

  if (conversation?.close) {
    const current = conversation
    const closed = await agentStep((signal) => current.close?.({ session, signal }))
    if ('error' in closed && !error) {
      turns.push({ role: 'agent', text: '', seconds: closed.seconds, tokens: null, error: `closing the conversation failed: ${closed.error}` })
      error = { verdict: 'agent_error', message: `closing the conversation failed: ${closed.error}` }
    }
  }

  const answered = answers(turns)
  const checks = error ? [] : await runChecks(scenario.checks, answered.map((t) => t.text), answered.map((t) => t.toolCalls ?? []), { signal: deps.signal })
  let claims: ClaimResult[] = []
  // A fatal check decided the attempt: the judge is not asked about a conversation already lost.
  if (!error && endedBy !== 'stop_check' && !deps.smoke && deps.judging !== false && scenario.judge.length > 0) {
    const judged = await judgeDialogue(scenario, dialogue, deps, { signal: deps.signal, record: meters.judge.record, cacheScope })
    if ('error' in judged) error = { verdict: 'no_verdict', message: `the judge (${deps.judge?.model}) gave no verdict: ${judged.error}` }
    else claims = judged.claims
  }

  const agentTokens = sumTokens(turns)
  const verdict: Verdict = error ? error.verdict : checks.every((c) => c.pass) && claims.every((c) => c.pass) ? 'passed' : 'failed'
  // The whole record is masked, the agent's answers included: an agent that echoes its request
  // headers must not put a token into attempts.jsonl and the pages made from it.
  return maskDeep({
    scenario: scenario.id,
    attempt: attemptNumber,
    verdict,
    error: error?.message ?? null,
    claims,
    checks,
    turns,
    ...(endedBy ? { endedBy } : {}),
    agentTokens,
    ...(deps.agentPrice && agentTokens ? { agentCostUsd: (agentTokens.input * deps.agentPrice[0] + agentTokens.output * deps.agentPrice[1]) / 1e6 } : {}),
    models: {
      user: meters.user.toUse(deps.user?.model, deps.prices),
      judge: meters.judge.toUse(deps.judge?.model, deps.prices),
    },
    startedAt: startedAt.toISOString(),
    seconds: (clock() - started) / 1000,
  } satisfies Attempt, deps.mask)
}

type LineSource = { kind: 'simulated' | 'script' | 'greeting' } | { kind: 'replay'; lines: readonly string[] }

async function nextUserLine(
  scenario: Scenario,
  source: LineSource,
  index: number,
  dialogue: readonly DialogueLine[],
  deps: PlayDependencies,
  context: ModelCallContext,
  clock: () => number,
): Promise<{ text: string; stop: boolean; seconds: number } | { error: string }> {
  if (source.kind === 'greeting') return { text: SMOKE_GREETING, stop: true, seconds: 0 }
  if (source.kind === 'script') return { text: scenario.script![index]!, stop: index === scenario.script!.length - 1, seconds: 0 }
  if (source.kind === 'replay') return { text: source.lines[index]!, stop: index === source.lines.length - 1, seconds: 0 }
  if (!deps.user) return { error: 'no simulated user model is configured' }
  const t0 = clock()
  try {
    const line = await deps.user.next(scenario, dialogue, context)
    return { text: line.text.trim(), stop: line.stop, seconds: (clock() - t0) / 1000 }
  } catch (cause) {
    throwIfInterrupted(deps.signal)
    return { error: deps.mask(errorMessage(cause)) }
  }
}

async function judgeDialogue(scenario: Scenario, dialogue: readonly DialogueLine[], deps: PlayDependencies, context: ModelCallContext): Promise<{ claims: ClaimResult[] } | { error: string }> {
  if (!deps.judge) return { error: 'no judge model is configured' }
  try {
    const decisions = await deps.judge.decide(scenario, dialogue, context)
    return { claims: scenario.judge.map((claim, i) => ({ claim, pass: decisions[i]!.pass, reason: decisions[i]!.reason })) }
  } catch (cause) {
    throwIfInterrupted(deps.signal)
    return { error: deps.mask(errorMessage(cause)) }
  }
}

function throwIfInterrupted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('interrupted')
}

function tokensOf(usage: { input?: number; output?: number } | undefined): Tokens | null {
  if (!usage || (usage.input === undefined && usage.output === undefined)) return null
  const count = (n: number | undefined) => (Number.isFinite(n) && n! > 0 ? Math.round(n!) : 0)
  return { input: count(usage.input), output: count(usage.output) }
}

function sumTokens(turns: readonly Turn[]): Tokens | null {
  const reported = turns.filter((t) => t.tokens !== null)
  if (reported.length === 0) return null
  return reported.reduce((sum, t) => ({ input: sum.input + t.tokens!.input, output: sum.output + t.tokens!.output }), { input: 0, output: 0 })
}

/** Adds up one role's model calls within an attempt. */
class ModelMeter {
  private calls = 0
  private cached = 0
  private tries = 0
  private input = 0
  private output = 0
  private seconds = 0

  readonly record = (call: CallRecord): void => {
    this.calls++
    if (call.cached) this.cached++
    this.tries += call.tries
    this.input += call.inputTokens
    this.output += call.outputTokens
    this.seconds += call.seconds
  }

  toUse(model: string | undefined, prices: PlayDependencies['prices']): ModelUse | null {
    if (this.calls === 0 || model === undefined) return null
    const price = prices[model]
    return {
      model,
      calls: this.calls,
      tries: this.tries,
      tokens: { input: this.input, output: this.output },
      seconds: this.seconds,
      costUsd: price ? (this.input * price[0] + this.output * price[1]) / 1e6 : null,
      cachedCalls: this.cached,
    }
  }
}
