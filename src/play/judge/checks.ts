import type { ToolCall } from '../agents/agent.ts'
import type { CheckResult } from '../../records/journal/records.ts'
import type { Check } from '../../records/scenario/scenario.ts'
import { compilePattern, loadPatterns } from '../../records/scenario/pattern.ts'
import { matchInWorker } from './check-worker.ts'
import { isToolCheck, runToolCheck } from './tool-checks.ts'
import { CONTEXT_PLACEHOLDER, contextText } from '../agents/context-values.ts'

export interface CheckOptions {
  /** Stops between answers when the run is interrupted: the attempt is dropped anyway. */
  signal?: AbortSignal
  /** Seconds one check may spend matching all the answers of an attempt. */
  budgetSeconds?: number
  clock?: () => number
  /** The attempt's context: a check's `{context.KEY}` is its value there (docs/scenarios.md). */
  context?: Readonly<Record<string, unknown>>
}

/**
 * Matching is linear in an answer's length (pattern.ts), but an answer may be up to the reply limit
 * (1 MB by default) long and a pattern a thousand steps: a check that has spent its budget stops and
 * fails saying so, never as an agent error.
 */
export const CHECK_BUDGET_SECONDS = 10

/**
 * Past this many characters × pattern steps, a `regex:` check runs in a worker with a hard deadline
 * rather than here: at about 30 ns a unit at worst (re2js, measured on 128 KiB), some 100 ms of the
 * event loop. Below it, answers of a few KB with ordinary patterns, a worker's start (tens of ms) would
 * cost more than the match.
 */
export const INLINE_MATCH_COST = 4_000_000

/**
 * Checks are decided by convy-ci itself on the agent's answers: free, instant and exactly repeatable.
 * `contains`, `regex` and `tool_called` hold when some answer matches; `not_contains` and
 * `tool_not_called` when no answer does. `toolCalls[i]` are the tools answer i came with.
 */
export async function runChecks(
  checks: readonly Check[],
  answers: readonly string[],
  toolCalls: readonly (readonly ToolCall[])[] = [],
  options: CheckOptions = {},
): Promise<CheckResult[]> {
  const clock = options.clock ?? (() => performance.now())
  const budgetMs = (options.budgetSeconds ?? CHECK_BUDGET_SECONDS) * 1000
  const results: CheckResult[] = []
  if (checks.some((check) => check.kind === 'regex')) await loadPatterns()
  for (const written of checks) {
    // Recorded as written (a check's record is counted under its text); matched with the context's values.
    const check = withContextValues(written, options.context ?? {})
    // Decided on the attempt's tool calls as a whole (tool-checks.ts), not answer by answer.
    if (isToolCheck(check)) {
      results.push(runToolCheck(check, answers.length, toolCalls))
      continue
    }
    let index = -1
    if (check.kind === 'regex' && answerCost(answers, check.value) > INLINE_MATCH_COST) {
      const match = await matchInWorker(check.value, answers, budgetMs, options.signal)
      if ('tooLong' in match) {
        results.push({ kind: check.kind, value: written.value as string, pass: false, detail: tooLongDetail(budgetMs, budgetMs, answers.length) })
        continue
      }
      index = match.found
    } else {
      const matches = matcher(check)
      // Only the matching itself is timed: the turns other attempts take in between are not this check's.
      let spentMs = 0
      let tooLong = false
      for (let i = 0; i < answers.length && index < 0; i++) {
        if (check.kind === 'regex') {
          await new Promise((resolve) => setImmediate(resolve))
          if (options.signal?.aborted) throw options.signal.reason
          if (spentMs > budgetMs) {
            tooLong = true
            break
          }
        }
        const t0 = clock()
        if (matches(answers[i]!, toolCalls[i] ?? [])) index = i
        spentMs += clock() - t0
      }
      if (tooLong) {
        results.push({ kind: check.kind, value: written.value as string, pass: false, detail: tooLongDetail(spentMs, budgetMs, answers.length) })
        continue
      }
    }
    const found = index >= 0
    const pass = check.kind === 'not_contains' || check.kind === 'tool_not_called' ? !found : found
    const detail = describe(check, found ? index : undefined, answers.length, toolCalls) + (check.value === written.value ? '' : ` ("${check.value}")`)
    results.push({ kind: check.kind, value: written.value as string, pass, detail: !pass && isFatal(check) ? `${detail}: a fatal check, the attempt ended there` : detail })
  }
  return results
}

function answerCost(answers: readonly string[], pattern: string): number {
  let characters = 0
  for (const answer of answers) characters += answer.length
  return characters * compilePattern(pattern).steps
}

function tooLongDetail(spentMs: number, budgetMs: number, answerCount: number): string {
  const on = answerCount === 1 ? 'the answer' : `${answerCount} answers`
  return `the check's pattern took too long (${(spentMs / 1000).toFixed(1)} s on ${on}; the limit is ${budgetMs / 1000} s)`
}

/**
 * The first fatal check that this one answer breaks, if any. Asked after every answer, so the attempt
 * ends at once: a conversation already lost costs no more model calls.
 */
export function brokenFatalCheck(checks: readonly Check[], answer: string, toolCalls: readonly ToolCall[], context: Readonly<Record<string, unknown>> = {}): Check | undefined {
  return checks.find((check) => isFatal(check) && !isToolCheck(check) && matcher(withContextValues(check, context) as typeof check)(answer, toolCalls))
}

/**
 * The check with each `{context.KEY}` in its text replaced by the context's value (in a `regex`,
 * matched literally). A key the context lacks was refused before the run, or failed the set-up.
 */
function withContextValues<C extends Check>(check: C, context: Readonly<Record<string, unknown>>): C {
  if (typeof check.value !== 'string' || !check.value.includes('{context.')) return check
  const value = check.value.replace(CONTEXT_PLACEHOLDER, (placeholder, path: string) => {
    const found = contextText(context, path.slice(1))
    if (!found.found) return placeholder
    return check.kind === 'regex' ? found.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : found.text
  })
  return { ...check, value }
}

function isFatal(check: Check): boolean {
  return 'fatal' in check && check.fatal === true
}

function matcher(check: Exclude<Check, { kind: 'tool_order' | 'max_tool_calls' }>): (answer: string, calls: readonly ToolCall[]) => boolean {
  switch (check.kind) {
    case 'regex': {
      const pattern = compilePattern(check.value)
      return (answer) => pattern.test(answer)
    }
    case 'tool_called':
    case 'tool_not_called':
      // Tool names are identifiers: matched exactly.
      return (_answer, calls) => calls.some((call) => call.name === check.value)
    case 'contains':
    case 'not_contains': {
      const needle = check.value.toLocaleLowerCase()
      return (answer) => answer.toLocaleLowerCase().includes(needle)
    }
  }
}

function describe(check: Exclude<Check, { kind: 'tool_order' | 'max_tool_calls' }>, foundAt: number | undefined, answerCount: number, toolCalls: readonly (readonly ToolCall[])[]): string {
  const tool = check.kind === 'tool_called' || check.kind === 'tool_not_called'
  const verb = tool ? 'called' : check.kind === 'regex' ? 'matches' : 'contains'
  if (foundAt !== undefined) return `answer ${foundAt + 1} ${verb} it`
  if (answerCount === 0) return 'the agent gave no answer'
  if (tool) return noCallDetail(toolCalls.slice(0, answerCount))
  return `none of the ${answerCount} answer${answerCount === 1 ? '' : 's'} ${verb} it`
}

// Not seeing a call can mean the agent made none, or that its protocol does not show tool calls:
// say which tools were seen, so a reader can tell the two apart.
function noCallDetail(toolCalls: readonly (readonly ToolCall[])[]): string {
  const seen = [...new Set(toolCalls.flat().map((call) => call.name))]
  if (seen.length === 0) return 'no answer came with a tool call (the agent made none, or its protocol does not show them)'
  return `no answer called it (tools called: ${seen.join(', ')})`
}
