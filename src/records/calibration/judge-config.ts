import { resolve } from 'node:path'
import * as z from '../../base/shared/zod.ts'
import { issuesToErrors } from '../../base/input/yaml-file.ts'
import { knownKeysOf } from '../../base/input/schema-keys.ts'
import { allProblems } from '../../base/shared/errors.ts'
import type { ProjectConfig } from '../config/load-config.ts'

/**
 * convy.yml's `judge:` section: where the labels of the judge's decisions are kept (calibration.json
 * is written beside them) and, optionally, the κ below which a comparison rests on an unchecked judge
 * and does not gate:
 *
 *   judge: { min_kappa: 0.7, labels: labels.jsonl }
 */
export const DEFAULT_LABELS_FILE = 'labels.jsonl'

const JudgeSectionSchema = z.strictObject({
  min_kappa: z.optional(z.number().check(z.gte(-1), z.lte(1))),
  labels: z.optional(z.nonEmptyText),
})

export interface JudgeConfig {
  /** null: no gate on the judge's calibration; it is still cited where it applies. */
  minKappa: number | null
  /** The labels file, absolute. */
  labels: string
}

/** The section of a loaded convy.yml; a wrong value is exit 2 at its line. Paths are relative to convy.yml. */
export function judgeConfig(config: ProjectConfig): JudgeConfig {
  const parsed = JudgeSectionSchema.safeParse(config.judge ?? {}, z.PARSE_FEW)
  if (!parsed.success) {
    throw allProblems(issuesToErrors(config.file, parsed.error.issues, ['judge'], knownKeysOf(JudgeSectionSchema, config.judge ?? {}, ['judge'])))
  }
  return { minKappa: parsed.data.min_kappa ?? null, labels: resolve(config.projectDir, parsed.data.labels ?? DEFAULT_LABELS_FILE) }
}
