import { readAllAttempts, readManifest } from '../journal/read-run.ts'
import type { Comparison, RunRecord } from './comparison.ts'
import { compareRuns, type CompareOptions } from './compare-runs.ts'

export async function loadRun(dir: string): Promise<RunRecord> {
  const [manifest, attempts] = await Promise.all([readManifest(dir), readAllAttempts(dir)])
  return { manifest, attempts }
}

/** Compares two run folders (before, then after). */
export async function compareRunFolders(beforeDir: string, afterDir: string, options: CompareOptions): Promise<Comparison> {
  const [before, after] = await Promise.all([loadRun(beforeDir), loadRun(afterDir)])
  return compareRuns(before, after, options)
}
