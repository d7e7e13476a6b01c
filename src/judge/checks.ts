import type { ToolCall } from '../agents/agent.ts'
import type { CheckResult } from '../journal/records.ts'
import type { Check } from '../scenario/scenario.ts'

/**
 * Checks are decided by convy-ci itself on the agent's answers: free, instant and exactly repeatable.
 * `contains`, `regex` and `tool_called` hold when some answer matches; `not_contains` and
 * `tool_not_called` when no answer does. `toolCalls[i]` are the tools answer i came with.
 */
export function runChecks(checks: readonly Check[], answers: readonly string[], toolCalls: readonly (readonly ToolCall[])[] = []): CheckResult[] {
  return checks.map((check) => {
    const matches = matcher(check)
    const index = answers.findIndex((answer, i) => matches(answer, toolCalls[i] ?? []))
    const found = index >= 0
    const pass = check.kind === 'not_contains' || check.kind === 'tool_not_called' ? !found : found
    const detail = describe(check, found ? index : undefined, answers.length, toolCalls)
    return { kind: check.kind, value: check.value, pass, detail: !pass && isFatal(check) ? `${detail}: a fatal check, the attempt ended there` : detail }
  })
}

/**
 * The first fatal check that this one answer breaks, if any. Asked after every answer, so the attempt
 * ends at once: a conversation already lost costs no more model calls.
 */
export function brokenFatalCheck(checks: readonly Check[], answer: string, toolCalls: readonly ToolCall[]): Check | undefined {
  return checks.find((check) => isFatal(check) && matcher(check)(answer, toolCalls))
}

function isFatal(check: Check): boolean {
  return 'fatal' in check && check.fatal === true
}

function matcher(check: Check): (answer: string, calls: readonly ToolCall[]) => boolean {
  switch (check.kind) {
    case 'regex': {
      const pattern = new RegExp(check.value, 'iu')
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

function describe(check: Check, foundAt: number | undefined, answerCount: number, toolCalls: readonly (readonly ToolCall[])[]): string {
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
