import { readFile } from 'node:fs/promises'
import * as z from '../../base/shared/zod.ts'
import { InputError } from '../../base/shared/errors.ts'
import { writeFileAtomic } from '../../base/shared/atomic-file.ts'
import type { Agreement } from '../../base/stats/agreement.ts'
import type { RunManifest } from '../journal/records.ts'

/**
 * calibration.json: what `convy-ci judge-check` measured of a judge against a person's labels. It
 * names the judge it measured — model, prompt fingerprint, temperature, samples — so whoever reads a
 * run can tell whether the figures are about the judge that decided that run (they apply) or about
 * another (stale: a new model or a new convy-ci prompt must be checked again).
 */
export const CALIBRATION_FORMAT = 1
export const CALIBRATION_FILE = 'calibration.json'

/** The judge as run.json records it; a change of any part can change its decisions. */
export interface JudgeIdentity {
  model: string
  /** sha256 of the judge's prompt; null for runs from before prompts were recorded. */
  prompt: string | null
  temperature: number | null
  samples: number
}

const IntervalSchema = z.object({ lower: z.number(), upper: z.number() })
const ShareSchema = z.nullable(z.object({ value: z.number(), of: z.int(), interval: IntervalSchema }))
const AgreementSchema = z.object({
  labels: z.int(),
  agreement: ShareSchema,
  onHolding: ShareSchema,
  onFailing: ShareSchema,
  kappa: z.nullable(z.object({ value: z.number(), standardError: z.number(), interval: IntervalSchema })),
})

const CalibrationSchema = z.object({
  format: z.literal(CALIBRATION_FORMAT),
  judge: z.object({ model: z.string(), prompt: z.nullable(z.string()), temperature: z.nullable(z.number()), samples: z.int().check(z.positive()) }),
  /** recorded: the runs' own decisions; asked: the judge was asked again (judge-check --judge). */
  decisions: z.enum(['recorded', 'asked']),
  labels: z.object({ file: z.string(), fingerprint: z.string(), runs: z.array(z.string()) }),
  overall: AgreementSchema,
  scenarios: z.array(z.object({ id: z.string(), figures: AgreementSchema })),
  disagreements: z.int().check(z.nonnegative()),
  checkedAt: z.string(),
  convyVersion: z.string(),
})
export type Calibration = z.infer<typeof CalibrationSchema> & { overall: Agreement }

/** The judge of a run; null when the run asked no judge. */
export function judgeOf(manifest: RunManifest): JudgeIdentity | null {
  if (manifest.models.judge === null) return null
  return {
    model: manifest.models.judge,
    prompt: manifest.prompts?.judge ?? null,
    temperature: manifest.prompts?.judgeTemperature ?? null,
    samples: manifest.prompts?.judgeSamples ?? manifest.settings.judgeSamples ?? 1,
  }
}

/** What differs between the judge a calibration measured and a run's judge, in words; empty when they are one judge. */
export function judgeDifferences(checked: JudgeIdentity, used: JudgeIdentity): string[] {
  const differences: string[] = []
  if (checked.model !== used.model) differences.push(`the judge model is "${used.model}", the labels checked "${checked.model}"`)
  if (checked.prompt !== used.prompt) differences.push("the judge's prompt changed since the check (another convy-ci version)")
  if (checked.temperature !== used.temperature) differences.push(`the judge's temperature is ${used.temperature ?? 'the default'}, the check's ${checked.temperature ?? 'the default'}`)
  if (checked.samples !== used.samples) differences.push(`the judge takes ${used.samples} sample${used.samples === 1 ? '' : 's'} per attempt, the check ${checked.samples}`)
  return differences
}

/**
 * Whether a calibration speaks for a run's judge: `matches` (same model, prompt, temperature and
 * samples), `stale` (it measured another judge; `why` says how they differ), or `none` (no calibration,
 * or the run has no judge).
 */
export type CalibrationStatus = { kind: 'none' } | { kind: 'matches'; calibration: Calibration } | { kind: 'stale'; calibration: Calibration; why: string }

export function calibrationStatus(calibration: Calibration | null, manifest: RunManifest): CalibrationStatus {
  const judge = judgeOf(manifest)
  if (!calibration || !judge) return { kind: 'none' }
  const differences = judgeDifferences(calibration.judge, judge)
  return differences.length === 0 ? { kind: 'matches', calibration } : { kind: 'stale', calibration, why: differences.join('; ') }
}

/** The calibration at `path`; null when there is none. A file that is there but wrong is exit 2, naming it. */
export async function readCalibration(path: string): Promise<Calibration | null> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch {
    return null
  }
  return parseCalibration(text, path)
}

/**
 * A calibration.json's text, held to the one schema wherever it was read: this checkout's file, or
 * the base commit's through the contents API (issue 38). `where` names it in the error (exit 2).
 */
export function parseCalibration(text: string, where: string): Calibration {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new InputError(`${where}: not valid JSON (${(error as Error).message}); run convy-ci judge-check again to write it`)
  }
  const parsed = CalibrationSchema.safeParse(data)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new InputError(`${where}: not a calibration this convy-ci reads (${issue?.path.join('.')}: ${issue?.message}); run convy-ci judge-check again to write it`)
  }
  return parsed.data
}

export async function writeCalibration(path: string, calibration: Calibration): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(calibration, null, 2)}\n`)
}
