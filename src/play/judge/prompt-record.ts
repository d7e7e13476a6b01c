import type { RunManifest } from '../../records/journal/records.ts'
import { JUDGE_TEMPERATURE, judgePromptFingerprint } from './judge-prompt.ts'
import { userPromptFingerprint } from '../simulated-user/simulated-user-prompt.ts'
import { userReviewPromptFingerprint } from '../review/user-review-prompt.ts'

/**
 * run.json's `prompts`: what the run's models were told (null for a model it does not use), the
 * review's included: it decides which failures count, so it is part of the judge's fingerprint.
 */
export function promptRecord(uses: { judge: boolean; user: boolean; judgeSamples?: number | undefined; review?: boolean | undefined }): NonNullable<RunManifest['prompts']> {
  return {
    judge: uses.judge ? judgePromptFingerprint() : null,
    user: uses.user ? userPromptFingerprint() : null,
    judgeTemperature: uses.judge ? JUDGE_TEMPERATURE : null,
    judgeSamples: uses.judgeSamples ?? 1,
    review: uses.review ? userReviewPromptFingerprint() : null,
  }
}
