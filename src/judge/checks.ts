import type { CheckResult } from '../journal/records.ts'
import type { Check } from '../scenario/scenario.ts'

/**
 * Checks are decided by convy-ci itself on the agent's answers: free, instant and exactly repeatable.
 * `contains` and `regex` hold when some answer matches; `not_contains` when no answer does.
 */
export function runChecks(checks: readonly Check[], answers: readonly string[]): CheckResult[] {
  return checks.map((check) => {
    const matches = matcher(check)
    const index = answers.findIndex(matches)
    const found = index >= 0
    const pass = check.kind === 'not_contains' ? !found : found
    return { kind: check.kind, value: check.value, pass, detail: describe(check, found ? index : undefined, answers.length) }
  })
}

function matcher(check: Check): (answer: string) => boolean {
  if (check.kind === 'regex') {
    const pattern = new RegExp(check.value, 'iu')
    return (answer) => pattern.test(answer)
  }
  const needle = check.value.toLocaleLowerCase()
  return (answer) => answer.toLocaleLowerCase().includes(needle)
}

function describe(check: Check, foundAt: number | undefined, answerCount: number): string {
  if (foundAt !== undefined) return `answer ${foundAt + 1} ${check.kind === 'regex' ? 'matches' : 'contains'} it`
  if (answerCount === 0) return 'the agent gave no answer'
  return `none of the ${answerCount} answer${answerCount === 1 ? '' : 's'} ${check.kind === 'regex' ? 'matches' : 'contains'} it`
}
