import type { CalibrationStatus } from '../../records/calibration/calibration.ts'
import { calibrationSentence } from '../page/judge-calibration.ts'
import { neutralise } from './neutralise.ts'

/**
 * The judge's calibration in the pull request's comment and the job summary: a quoted line under the
 * comment's other notes (a paragraph of its own), a warning when the calibration is of another judge. Model names come from files people
 * edit, so the sentence is neutralised like any text from a run.
 */
export function calibrationMarkdown(status: CalibrationStatus): string {
  const sentence = calibrationSentence(status)
  if (!sentence) return ''
  return `\n> ${status.kind === 'stale' ? '⚠️ ' : ''}${neutralise(sentence, 600)}\n`
}
