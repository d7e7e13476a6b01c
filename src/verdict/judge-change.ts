import type { RunManifest } from '../records/journal/records.ts'
import type { JudgeChange } from './comparison.ts'

/** What of the judge differs between two runs: judgeChange's parts, and the review (its setting or prompt). */
export function judgeDifferences(before: RunManifest, after: RunManifest): string[] {
  const parts = [...(judgeChange(before, after)?.changed ?? [])]
  const reviewOf = (run: RunManifest) => (run.settings.review ? (run.prompts?.review ?? 'on') : null)
  const [a, b] = [reviewOf(before), reviewOf(after)]
  // A run from before the review's prompt was recorded says only that it was on: that is not a change.
  if ((a === null) !== (b === null) || (a !== null && b !== null && a !== 'on' && b !== 'on' && a !== b)) parts.push('review')
  return parts
}

/**
 * Whether the two runs were judged alike. A new judge model, a new judge prompt (a new convy-ci
 * version), another endpoint (the same model name at another gateway), another temperature or number of samples — or a new simulated user prompt, which changes
 * the dialogues themselves — can move pass rates on its own, so a comparison across one cannot
 * attribute a change to the agent. Runs that predate the record of prompts are compared on the model alone.
 */
export function judgeChange(before: RunManifest, after: RunManifest): JudgeChange | null {
  const changed: string[] = []
  const parts: string[] = []
  if (before.models.judge !== after.models.judge) {
    changed.push('model')
    parts.push(`the judge model changed from ${name(before.models.judge)} to ${name(after.models.judge)}`)
  }
  // The same model name at another gateway may be another model (a run that predates the record says nothing).
  const [endpointBefore, endpointAfter] = [before.models.judgeEndpoint, after.models.judgeEndpoint]
  if (endpointBefore && endpointAfter && endpointBefore !== endpointAfter) {
    changed.push('endpoint')
    parts.push(`the judge is asked at another endpoint (${endpointBefore} → ${endpointAfter})`)
  }
  const a = before.prompts
  const b = after.prompts
  if (a && b) {
    if (a.judge !== null && b.judge !== null && a.judge !== b.judge) {
      changed.push('prompt')
      parts.push(`the judge's prompt changed (convy-ci ${before.convyVersion} → ${after.convyVersion})`)
    }
    if (a.judge !== null && b.judge !== null && a.judgeTemperature !== b.judgeTemperature) {
      changed.push('temperature')
      parts.push(`the judge's temperature changed from ${a.judgeTemperature ?? 'the server default'} to ${b.judgeTemperature ?? 'the server default'}`)
    }
    if (a.judgeSamples !== b.judgeSamples) {
      changed.push('samples')
      parts.push(`the judge's samples per attempt changed from ${a.judgeSamples} to ${b.judgeSamples}`)
    }
    if (a.user !== null && b.user !== null && a.user !== b.user) {
      changed.push('simulated user prompt')
      parts.push(`the simulated user's prompt changed (convy-ci ${before.convyVersion} → ${after.convyVersion})`)
    }
  }
  // The review relabels failures as the simulated user's (user_error): part of how a run is judged.
  const review = (manifest: RunManifest) => manifest.settings.review ?? false
  if (review(before) !== review(after)) {
    changed.push('review')
    parts.push(`the review of failed attempts was ${review(before) ? 'on' : 'off'} in the baseline and is ${review(after) ? 'on' : 'off'} now`)
  }
  if (changed.length === 0) return null
  const message = `${capitalise(parts.join('; '))}: differences may come from how the runs were judged, not from the agent.`
  return { changed, message }
}

function name(model: string | null): string {
  return model === null ? 'none' : `"${model}"`
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
