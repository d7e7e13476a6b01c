import type { CheckResult, ServedCall } from '../../records/journal/records.ts'
import { endStateText, type EndStateCheck } from '../../records/scenario/tools.ts'
import { isRecord } from '../../records/scenario/tool-template.ts'
import { capped } from '../../base/shared/text.ts'
import { differences } from '../judge/tool-checks.ts'

/**
 * `end_state:` decided after the last turn by convy-ci, with no model, on what it saw itself: the
 * world state its tools were left in and the calls they were served. What an agent only reports
 * counts for nothing here: it did not change the world.
 */
export function decideEndState(checks: readonly EndStateCheck[], calls: readonly ServedCall[], state: Readonly<Record<string, unknown>>): CheckResult[] {
  return checks.map((check) => {
    const result = (pass: boolean, detail: string): CheckResult => ({ kind: check.kind, value: endStateText(check), pass, detail })
    switch (check.kind) {
      case 'state': {
        const found = readPath(state, check.path.split('.'))
        if (!found.present) return result(false, `${check.path} was never set (the state: ${shown(state)})`)
        const pass = differences(check.equals, found.value, []).length === 0 && differences(found.value, check.equals, []).length === 0
        return result(pass, pass ? `${check.path} is ${shown(found.value)}` : `${check.path} is ${shown(found.value)}, expected ${shown(check.equals)}`)
      }
      case 'called': {
        const named = calls.filter((call) => call.name === check.tool)
        const matching = named.filter((call) => check.args === undefined || differences(check.args, call.arguments, []).length === 0)
        const pass = check.times === undefined ? matching.length > 0 : matching.length === check.times
        const withArgs = check.args === undefined ? '' : ' with these arguments'
        const counted = `${check.tool} was called ${times(matching.length)}${withArgs}${named.length > matching.length ? ` (${times(named.length)} in all)` : ''}`
        return result(pass, check.times === undefined || pass ? counted : `${counted}, expected ${times(check.times)}`)
      }
      case 'never': {
        const named = calls.filter((call) => call.name === check.tool)
        if (named.length === 0) return result(true, `${check.tool} was not called`)
        const first = named[0]!
        return result(false, `${check.tool} was called ${times(named.length)}, first${first.turn === undefined ? '' : ` during answer ${first.turn}`} with ${shown(first.arguments ?? {})}`)
      }
    }
  })
}

function readPath(state: Readonly<Record<string, unknown>>, path: readonly string[]): { present: boolean; value?: unknown } {
  let value: unknown = state
  for (const key of path) {
    if (!isRecord(value) || !Object.hasOwn(value, key)) return { present: false }
    value = value[key]
  }
  return { present: true, value }
}

function times(n: number): string {
  return n === 1 ? 'once' : `${n} times`
}

function shown(value: unknown): string {
  return capped(JSON.stringify(value) ?? 'null', 200)
}
