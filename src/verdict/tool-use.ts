import { fisherExact } from '../base/stats/exact-tests.ts'
import { atMost } from '../base/stats/counts.ts'
import { taroneCorrection, type TaroneCorrection } from '../base/stats/tarone.ts'
import type { AttemptDigest, RunTally } from '../records/tally/run-tally.ts'

/**
 * What changed in the tools an agent called, per scenario both runs played alike: a tool called in
 * 5/5 attempts before and 0/5 after, a new one, an argument whose usual value changed. Counted per
 * attempt (did it call the tool; did it call it with `key` = value) and tested with the tests the
 * pass rates use: one-sided Fisher per direction, Tarone's correction over every count that could
 * move at all. What the judge and the checks make of it is the pass rate's business; this says what
 * the agent did differently, which a reviewer wants even when every claim still holds.
 */

/** Attempts that did something, out of attempts that got to talk to the agent to the end. */
export interface ToolUseCount {
  attempts: number
  of: number
}

export interface ToolUseChange {
  tool: string
  /**
   * dropped: called before, never after; new: the reverse; fewer, more: called in fewer or more
   * attempts; arguments: called as often, but an argument's usual value changed.
   */
  kind: 'dropped' | 'new' | 'fewer' | 'more' | 'arguments'
  /**
   * For `arguments`: the argument (a top-level key), its value that became rarer, as JSON, and the
   * one that became more common; null for a side where no single value moved (the argument came or
   * went, or takes many values).
   */
  argument: { key: string; before: string | null; after: string | null } | null
  /** For a call: attempts that called the tool; for arguments: attempts that called it with the value that moved (`before`, else `after`). */
  before: ToolUseCount
  after: ToolUseCount
  /** One-sided Fisher p in the direction it moved. */
  p: number
  /** Beyond noise after Tarone's correction; otherwise a possible change (raw p ≤ TOOL_USE_POSSIBLE). */
  significant: boolean
}

export interface ScenarioToolUse {
  id: string
  /** Most certain first. */
  changes: ToolUseChange[]
}

export interface ToolUse {
  /** Scenarios with at least one change, in the order they were given. */
  scenarios: ScenarioToolUse[]
  /** Per direction (fewer, more), family-wise over every count of every scenario. */
  corrections: { fewer: TaroneCorrection; more: TaroneCorrection }
}

/** The family-wise level per direction, as for single scenarios' pass rates (decide.ts). */
export const TOOL_USE_ALPHA = 0.025
/** A raw one-sided p at or under this is listed, as a possible change when it does not survive the correction. */
export const TOOL_USE_POSSIBLE = 0.05
/** Argument values are compared as JSON up to this long; longer ones are too particular to count. */
const VALUE_CHARS = 200

interface Count {
  tool: string
  /** Undefined for "called the tool at all". */
  key?: string
  value?: string
  before: ToolUseCount
  after: ToolUseCount
}

/** `ids`: the scenarios both runs played alike (the comparison's compared scenarios). */
export function toolUseChanges(before: RunTally, after: RunTally, ids: readonly string[]): ToolUse {
  const counted = ids.map((id) => ({ id, counts: scenarioCounts(before.scenarios.get(id)?.attempts ?? [], after.scenarios.get(id)?.attempts ?? []) }))
  const tests = counted.map(({ counts }) => counts.map((c) => fisherExact({ passed: c.after.attempts, total: c.after.of }, { passed: c.before.attempts, total: c.before.of })))
  const flat = tests.flat()
  const corrections = {
    fewer: taroneCorrection(flat.map((t) => t.minimumLess), TOOL_USE_ALPHA),
    more: taroneCorrection(flat.map((t) => t.minimumGreater), TOOL_USE_ALPHA),
  }
  const scenarios = counted.flatMap(({ id, counts }, s) => {
    const moved = counts.flatMap((count, i): (Count & { p: number; significant: boolean; fewer: boolean })[] => {
      const { less, greater } = tests[s]![i]!
      const fewer = less <= greater
      const p = fewer ? less : greater
      if (!atMost(p, TOOL_USE_POSSIBLE)) return []
      return [{ ...count, p, fewer, significant: atMost(p, (fewer ? corrections.fewer : corrections.more).threshold) }]
    })
    const changes = describeChanges(moved)
    return changes.length === 0 ? [] : [{ id, changes }]
  })
  return { scenarios, corrections }
}

/**
 * Attempts that ended with an agent error or a failure of convy-ci's models did not get to the end
 * of their conversation: what they did not call says nothing.
 */
function usable(attempts: readonly AttemptDigest[]): AttemptDigest[] {
  return attempts.filter((a) => a.verdict !== 'agent_error' && a.endedBy !== 'model_error' && a.endedBy !== 'agent_error' && a.endedBy !== 'interrupted')
}

function scenarioCounts(beforeAttempts: readonly AttemptDigest[], afterAttempts: readonly AttemptDigest[]): Count[] {
  // Most scenarios of most agents call no tool: nothing to count.
  if (!beforeAttempts.some((x) => x.toolCalls.length > 0) && !afterAttempts.some((x) => x.toolCalls.length > 0)) return []
  const [b, a] = [usable(beforeAttempts), usable(afterAttempts)]
  if (b.length === 0 || a.length === 0) return []
  const facts = (attempts: AttemptDigest[]) => {
    const tally = new Map<string, number>()
    for (const attempt of attempts) for (const fact of attemptFacts(attempt)) tally.set(fact, (tally.get(fact) ?? 0) + 1)
    return tally
  }
  const [fb, fa] = [facts(b), facts(a)]
  return [...new Set([...fb.keys(), ...fa.keys()])].sort().map((fact) => {
    const [tool, key, value] = JSON.parse(fact) as [string, string?, string?]
    return { tool, ...(key === undefined ? {} : { key, value }), before: { attempts: fb.get(fact) ?? 0, of: b.length }, after: { attempts: fa.get(fact) ?? 0, of: a.length } }
  })
}

/** What one attempt did, once each: called a tool; called it with a top-level argument equal to a value. */
function attemptFacts(attempt: AttemptDigest): Set<string> {
  const facts = new Set<string>()
  for (const call of attempt.toolCalls) {
    facts.add(JSON.stringify([call.name]))
    const args = call.arguments
    if (args === null || typeof args !== 'object' || Array.isArray(args)) continue
    for (const [key, value] of Object.entries(args)) {
      const json = canonical(value)
      if (json.length <= VALUE_CHARS) facts.add(JSON.stringify([call.name, key, json]))
    }
  }
  return facts
}

/** JSON with the keys of objects sorted: {"a":1,"b":2} and {"b":2,"a":1} are one value. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/**
 * A tool called more or less often is one change, and its arguments moved with it: not told again.
 * For a tool called as often, an argument value that became rarer is paired with the value of the
 * same argument that became more common: `amount` 20 → 25.
 */
function describeChanges(moved: readonly (Count & { p: number; significant: boolean; fewer: boolean })[]): ToolUseChange[] {
  const calls = moved.filter((m) => m.key === undefined)
  const callChanged = new Set(calls.map((m) => m.tool))
  const changes: ToolUseChange[] = calls.map((m) => ({
    tool: m.tool,
    kind: m.fewer ? (m.after.attempts === 0 ? 'dropped' : 'fewer') : m.before.attempts === 0 ? 'new' : 'more',
    argument: null,
    before: m.before,
    after: m.after,
    p: m.p,
    significant: m.significant,
  }))
  const values = moved.filter((m) => m.key !== undefined && !callChanged.has(m.tool))
  for (const rarer of values.filter((m) => m.fewer)) {
    const commoner = values.filter((m) => !m.fewer && m.tool === rarer.tool && m.key === rarer.key).sort((x, y) => x.p - y.p)[0]
    changes.push({
      tool: rarer.tool,
      kind: 'arguments',
      argument: { key: rarer.key!, before: rarer.value!, after: commoner?.value ?? null },
      before: rarer.before,
      after: rarer.after,
      p: rarer.p,
      significant: rarer.significant,
    })
  }
  // An argument that appeared with a value it never had, where no value became rarer (a new argument).
  for (const commoner of values.filter((m) => !m.fewer && !values.some((r) => r.fewer && r.tool === m.tool && r.key === m.key))) {
    changes.push({ tool: commoner.tool, kind: 'arguments', argument: { key: commoner.key!, before: null, after: commoner.value! }, before: commoner.before, after: commoner.after, p: commoner.p, significant: commoner.significant })
  }
  return changes.sort((x, y) => Number(y.significant) - Number(x.significant) || x.p - y.p)
}
