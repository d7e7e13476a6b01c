import type { ComparedScenario, NotComparedScenario, ScenarioSide } from './comparison.ts'
import type { ScenarioChange } from './evidence.ts'

/**
 * The scenarios a pull request removed, retired, renamed or edited, each with the baseline's standing
 * beside its own: the comment says them in its first lines, since each can hide a break.
 */
export function scenarioChanges(compared: readonly ComparedScenario[], notCompared: readonly NotComparedScenario[]): ScenarioChange[] {
  const standing = (side: ScenarioSide | null) => (side === null ? null : { passed: side.passed, judged: side.judged })
  const changes: ScenarioChange[] = []
  for (const s of notCompared) {
    const kind = s.reason === 'only-before' ? 'removed' : s.reason === 'retired' ? 'retired' : s.reason === 'edited' ? 'edited' : null
    if (kind) changes.push({ kind, id: s.id, from: null, reason: s.retired ?? null, before: standing(s.before), after: standing(s.after) })
    else if (s.renamedFrom) changes.push({ kind: 'renamed', id: s.id, from: s.renamedFrom, reason: null, before: standing(s.before), after: standing(s.after) })
  }
  for (const s of compared) {
    if (s.renamedFrom) changes.push({ kind: 'renamed', id: s.id, from: s.renamedFrom, reason: null, before: standing(s.before), after: standing(s.after) })
  }
  const order: ScenarioChange['kind'][] = ['removed', 'edited', 'renamed', 'retired']
  return changes.sort((x, y) => order.indexOf(x.kind) - order.indexOf(y.kind) || (x.id < y.id ? -1 : 1))
}
