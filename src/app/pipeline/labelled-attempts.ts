import { FileError, InputErrors } from '../../base/shared/errors.ts'
import type { Label } from '../../records/calibration/labels.ts'
import { findRun, readAttempts, readManifest } from '../../records/journal/read-run.ts'
import type { Attempt, RunManifest } from '../../records/journal/records.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'

/**
 * The recorded attempts that labels name, found in the results folder: each run read once, and only
 * the labelled attempts kept. A label that names no recorded run, attempt or claim is an input error
 * at its line; every such line is reported at once.
 */
export interface LabelledRun {
  manifest: RunManifest
  scenarios: Map<string, Scenario>
  /** By `scenario#attempt`. */
  attempts: Map<string, Attempt>
}

export interface LabelledDecision {
  label: Label
  run: LabelledRun
  scenario: Scenario
  attempt: Attempt
}

export function attemptKey(scenario: string, attempt: number): string {
  return `${scenario}#${attempt}`
}

export async function findLabelledAttempts(file: string, labels: readonly Label[], resultsDir: string): Promise<{ runs: Map<string, LabelledRun>; decisions: LabelledDecision[] }> {
  const problems: FileError[] = []
  const runs = new Map<string, LabelledRun | null>()
  for (const label of labels) {
    if (runs.has(label.run)) continue
    runs.set(label.run, await readLabelledRun(resultsDir, label.run, labels))
  }
  const decisions: LabelledDecision[] = []
  for (const label of labels) {
    const run = runs.get(label.run)
    if (!run) {
      problems.push(new FileError(file, label.line, `no recorded run "${label.run}" in ${resultsDir}`))
      continue
    }
    const scenario = run.scenarios.get(label.scenario)
    const attempt = run.attempts.get(attemptKey(label.scenario, label.attempt))
    if (!scenario || !attempt) {
      const what = scenario ? `attempt ${label.attempt} of scenario "${label.scenario}"` : `scenario "${label.scenario}"`
      problems.push(new FileError(file, label.line, `run ${label.run} has no recorded ${what}`))
      continue
    }
    if (label.claim > scenario.judge.length) {
      const has = scenario.judge.length === 0 ? 'no claims' : `claims 1 to ${scenario.judge.length}`
      problems.push(new FileError(file, label.line, `scenario "${label.scenario}" of run ${label.run} has no claim ${label.claim} (it has ${has})`))
      continue
    }
    decisions.push({ label, run, scenario, attempt })
  }
  if (problems.length === 1) throw problems[0]!
  if (problems.length > 1) throw new InputErrors(problems)
  return { runs: new Map([...runs].filter((entry): entry is [string, LabelledRun] => entry[1] !== null)), decisions }
}

async function readLabelledRun(resultsDir: string, id: string, labels: readonly Label[]): Promise<LabelledRun | null> {
  let dir: string
  try {
    dir = (await findRun(resultsDir, id)).dir
  } catch {
    return null
  }
  const manifest = await readManifest(dir)
  if (manifest.id !== id) return null
  const wanted = new Set(labels.filter((l) => l.run === id).map((l) => attemptKey(l.scenario, l.attempt)))
  const attempts = new Map<string, Attempt>()
  for await (const attempt of readAttempts(dir)) {
    const key = attemptKey(attempt.scenario, attempt.attempt)
    if (wanted.has(key)) attempts.set(key, attempt)
  }
  return { manifest, scenarios: new Map(manifest.scenarios.map((s) => [s.id, s])), attempts }
}
