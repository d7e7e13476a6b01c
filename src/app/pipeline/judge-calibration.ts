import { stat } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { CALIBRATION_FILE, readCalibration, type Calibration } from '../../records/calibration/calibration.ts'
import { DEFAULT_LABELS_FILE, judgeConfig, loadProjectConfig, type ProjectConfig } from '../../records/config/load-config.ts'

/**
 * The project's judge calibration: calibration.json beside the labels that convy.yml's `judge.labels`
 * names (default labels.jsonl beside convy.yml), and `judge.min_kappa`. The action's inputs
 * `judge-labels` and `judge-min-kappa` override the file's.
 */
export interface ProjectCalibration {
  minKappa: number | null
  calibration: Calibration | null
  /** Where calibration.json is (or would be). */
  path: string
}

export interface CalibrationOverrides {
  minKappa?: number | null | undefined
  /** A labels file relative to the working directory. */
  labels?: string | undefined
}

export async function calibrationOfProject(config: ProjectConfig, cwd: string, overrides: CalibrationOverrides = {}): Promise<ProjectCalibration> {
  const judge = judgeConfig(config)
  const labels = overrides.labels ? resolve(cwd, overrides.labels) : judge.labels
  return load(overrides.minKappa ?? judge.minKappa, labels)
}

/**
 * The same for commands that need no convy.yml (compare, report, publish): read when there is one,
 * else labels.jsonl in the working directory.
 */
export async function calibrationNear(cwd: string, options: { config?: string | undefined }, overrides: CalibrationOverrides = {}): Promise<ProjectCalibration> {
  const configPath = resolve(cwd, options.config ?? 'convy.yml')
  const exists = await stat(configPath).then(
    (s) => s.isFile(),
    () => false,
  )
  if (exists) return calibrationOfProject(await loadProjectConfig(configPath), cwd, overrides)
  return load(overrides.minKappa ?? null, resolve(cwd, overrides.labels ?? DEFAULT_LABELS_FILE))
}

async function load(minKappa: number | null, labels: string): Promise<ProjectCalibration> {
  const path = join(dirname(labels), CALIBRATION_FILE)
  return { minKappa, calibration: await readCalibration(path), path }
}
