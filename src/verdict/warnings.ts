import type { RunManifest } from '../records/journal/records.ts'
import type { OverallChange } from './decide.ts'
import type { ComparisonWarning, NotComparedScenario, Tiles } from './comparison.ts'
import type { RunSums } from './run-sums.ts'
import { capped } from '../base/shared/text.ts'
import { errorGroups } from '../records/tally/error-groups.ts'

export interface WarningInputs {
  before: { manifest: RunManifest; tally: RunSums }
  after: { manifest: RunManifest; tally: RunSums }
  notCompared: readonly NotComparedScenario[]
  overall: OverallChange
  tiles: Tiles
  now: Date
  maxAgeDays: number
}

const DAY_MS = 24 * 60 * 60 * 1000
/** A warning is cut at 300 characters where it is shown; the quoted error leaves room for the rest. */
const QUOTED_ERROR_CHARACTERS = 160

/** What a reader should know before trusting the comparison. Messages are plain text. */
export function comparisonWarnings(inputs: WarningInputs): ComparisonWarning[] {
  const { before, after } = inputs
  const a = before.manifest
  const b = after.manifest
  const warnings: ComparisonWarning[] = []
  const add = (kind: ComparisonWarning['kind'], message: string) => warnings.push({ kind, message })

  if (a.agent.name !== b.agent.name) add('different-agent', `The runs are of different agents: "${a.agent.name}" before, "${b.agent.name}" after.`)
  if (a.models.user !== b.models.user) {
    add('different-user-model', `The simulated user changed from ${modelName(a.models.user)} to ${modelName(b.models.user)}: differences may come from the user, not the agent.`)
  }
  if (a.models.judge !== b.models.judge) {
    add('different-judge-model', `The judge changed from ${modelName(a.models.judge)} to ${modelName(b.models.judge)}: differences may come from the judge, not the agent.`)
  }
  if (a.models.user === b.models.user && a.models.judge === b.models.judge && a.models.fingerprint !== b.models.fingerprint) {
    add('different-model-settings', "convy-ci's models have the same names but were configured differently in the two runs.")
  }
  scenarioSetWarnings(inputs.notCompared, add)

  const baselineAt = Date.parse(a.finishedAt ?? a.startedAt)
  const ageDays = (inputs.now.getTime() - baselineAt) / DAY_MS
  if (ageDays > inputs.maxAgeDays) {
    add('old-baseline', `The baseline is ${Math.floor(ageDays)} days old (from ${a.startedAt.slice(0, 10)}): the agent's dependencies and the models may have moved since.`)
  }
  for (const [label, manifest] of [['before', a], ['after', b]] as const) {
    if (manifest.state !== 'finished') add('unfinished-run', `The ${label} run is ${manifest.state}: it has only the attempts recorded so far.`)
    if (manifest.settings.smoke) add('smoke-run', `The ${label} run is a smoke run: its user lines are scripted and no judge was asked.`)
  }
  for (const [label, tally] of [['before', before.tally], ['after', after.tally]] as const) {
    if (tally.unknownScenarioAttempts > 0) {
      add('unknown-scenarios', `${tally.unknownScenarioAttempts} attempts of the ${label} run name scenarios its run.json does not list; they are left out.`)
    }
  }
  const errors = inputs.tiles.agentErrors
  if (errors.tone === 'worse') {
    // What the agent said, not only how often: an agent that did not come up fails every attempt alike.
    const [most] = errorGroups(after.tally.scenarios.values(), ['agent_error'])
    const said = most ? ` Most often (${most.attempts}): ${capped(most.message, QUOTED_ERROR_CHARACTERS)}` : ''
    add('more-agent-errors', `The agent failed ${errors.after} of ${errors.of?.after} attempts after, against ${errors.before} of ${errors.of?.before} before; each counts as a failed attempt.${said}`)
  }
  if (inputs.overall.scenarios === 0) add('nothing-compared', 'No scenario could be compared: there is no verdict on the pass rate.')
  return warnings
}

function scenarioSetWarnings(notCompared: readonly NotComparedScenario[], add: (kind: ComparisonWarning['kind'], message: string) => void): void {
  const count = (reason: NotComparedScenario['reason']) => notCompared.filter((s) => s.reason === reason).length
  const onlyBefore = count('only-before')
  const onlyAfter = count('only-after')
  if (onlyBefore + onlyAfter > 0) {
    add('different-scenarios', `The runs played different scenarios: ${onlyBefore} only before, ${onlyAfter} only after. Those are not compared.`)
  }
  const edited = count('edited')
  if (edited > 0) add('edited-scenarios', `${edited} ${edited === 1 ? 'scenario was' : 'scenarios were'} edited between the runs and ${edited === 1 ? 'is' : 'are'} not compared.`)
}

function modelName(name: string | null): string {
  return name === null ? 'none' : `"${name}"`
}
