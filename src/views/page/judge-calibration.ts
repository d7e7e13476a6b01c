import type { Agreement } from '../../base/stats/agreement.ts'
import type { CalibrationStatus } from '../../records/calibration/calibration.ts'
import { percent, plural } from './format.ts'

/**
 * The one sentence every place that shows a verdict says about the judge's calibration: the run's
 * summary, the report, the compare page and the pull request's comment. Plain text; each place
 * escapes or neutralises it as it does all text.
 */

/** "judge agreement 94%, κ 0.87 on 120 labels". */
export function agreementText(a: Agreement): string {
  return `judge agreement ${percent(a.agreement?.value ?? null)}, κ ${kappaText(a)} on ${plural(a.labels, 'label')}`
}

/** κ to two decimals, with a true minus sign; "undefined" when every label and decision is one answer. */
export function kappaText(a: Agreement): string {
  if (!a.kappa) return 'undefined'
  const text = Math.abs(a.kappa.value).toFixed(2)
  return a.kappa.value < 0 && Number(text) !== 0 ? `\u2212${text}` : text
}

/** What a page or the comment says of the judge's check; null when there is none to speak of. */
export function calibrationSentence(status: CalibrationStatus): string | null {
  if (status.kind === 'none') return null
  const figures = agreementText(status.calibration.overall)
  if (status.kind === 'matches') return `Judge checked against a person's labels: ${figures} (${status.calibration.checkedAt.slice(0, 10)}).`
  return `Judge calibration is stale: ${status.why}. The last check (${figures}) was of another judge; run convy-ci judge-check again.`
}
