// Apart from run-tally.ts so the package's declarations (entry/library/result-types.ts) take the type
// without the records behind a tally.

/** As the report says it: failing, flaky, passing, or no verdict. */
export type ScenarioStatus = 'failing' | 'flaky' | 'passing' | 'no_verdict'

/** Only passed and failed attempts count: agent errors and no-verdicts say nothing about the claims. */
export function scenarioStatus(passed: number, failed: number): ScenarioStatus {
  if (passed + failed === 0) return 'no_verdict'
  if (failed === 0) return 'passing'
  if (passed === 0) return 'failing'
  return 'flaky'
}
