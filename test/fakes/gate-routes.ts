import type { Attempt, RunManifest } from '../../src/records/journal/records.ts'
import { syntheticRun } from './synthetic-run.ts'

/**
 * The ways around a gate of issue 21, each as a baseline and a pull request's run in which the first
 * scenario really broke (always passed, now never does) and the run hides it one way. Built from
 * synthetic runs (no agent errors or missing verdicts unless the route adds them), k = 5, 6 scenarios.
 */
export interface GateRoute {
  name: string
  baseline: { manifest: RunManifest; attempts: Attempt[] }
  pr: { manifest: RunManifest; attempts: Attempt[] }
}

const K = 5
const SCENARIOS = 6

function runs(options: { prPass?: (index: number) => number; seed?: number } = {}) {
  const common = { k: K, scenarios: SCENARIOS, agentErrorRate: 0, noVerdictRate: 0, prices: false }
  const baseline = syntheticRun({ ...common, seed: 1, passProbability: () => 1, startedAt: new Date('2026-11-28T10:00:00Z') })
  const pr = syntheticRun({ ...common, seed: options.seed ?? 2, passProbability: options.prPass ?? ((index) => (index === 0 ? 0 : 1)), startedAt: new Date('2026-11-29T10:00:00Z') })
  // The review is on in both runs, as by default: it is part of how a run is judged.
  for (const run of [baseline, pr]) run.manifest.settings = { ...run.manifest.settings, review: true }
  return { baseline, pr, first: baseline.manifest.scenarios[0]!.id }
}

/** The PR's attempts of the broken scenario, changed by `change`. */
function relabel(attempts: Attempt[], id: string, change: (attempt: Attempt, index: number) => Attempt): Attempt[] {
  let index = 0
  return attempts.map((a) => (a.scenario === id ? change(a, index++) : a))
}

export function gateRoute(name: 'laundered' | 'blind' | 'renamed' | 'reworded' | 'tag-only' | 'removed' | 'retired' | 'judge-unstable' | 'judge-change'): GateRoute {
  const { baseline, pr, first } = runs()
  switch (name) {
    case 'laundered': // a reviewer that blames the simulated user for every failure
      pr.attempts = relabel(pr.attempts, first, (a) => ({ ...a, verdict: 'user_error', review: { model: 'gpt-4.1', mistakes: [{ kind: 'ignored_instructions', line: 1, note: 'went off script' }], decided: true, reason: 'the user went off script', error: null } }))
      break
    case 'blind': // a judge that refuses exactly on the broken dialogues
      pr.attempts = relabel(pr.attempts, first, (a) => ({ ...a, verdict: 'no_verdict', claims: [], error: 'judge: the model refused' }))
      break
    case 'renamed':
      pr.manifest.scenarios[0] = { ...pr.manifest.scenarios[0]!, id: `${first}-renamed` }
      pr.attempts = relabel(pr.attempts, first, (a) => ({ ...a, scenario: `${first}-renamed` }))
      break
    case 'reworded': {
      const scenario = pr.manifest.scenarios[0]!
      pr.manifest.scenarios[0] = { ...scenario, judge: [...scenario.judge.slice(1), 'The agent was helpful, more or less'] }
      break
    }
    case 'tag-only':
      pr.manifest.scenarios[0] = { ...pr.manifest.scenarios[0]!, tags: [...pr.manifest.scenarios[0]!.tags, 'flaky-today'], description: 'a new description' }
      break
    case 'removed':
    case 'retired':
      pr.manifest.scenarios = pr.manifest.scenarios.slice(1)
      pr.attempts = pr.attempts.filter((a) => a.scenario !== first)
      if (name === 'retired') pr.manifest.retired = [{ id: first, reason: 'the refund flow moved to the billing agent' }]
      break
    case 'judge-unstable': // rejudged m = 3: a consistent broken agent, one stray vote
      pr.attempts = relabel(pr.attempts, first, (a, index) => ({ ...a, claims: a.claims.map((c) => ({ ...c, pass: false, votes: index === 0 ? [true, false, false] : [false, false, false] })) }))
      break
    case 'judge-change': // the PR changes the judge model in convy.yml
      pr.manifest.models = { ...pr.manifest.models, judge: 'gpt-4.1-nano' }
      break
  }
  return { name, baseline, pr }
}
