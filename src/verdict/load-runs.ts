import { readTally } from '../records/tally/read-tally.ts'
import type { Comparison } from './comparison.ts'
import { compareRuns, type CompareRunsOptions } from './compare-runs.ts'

/** Compares two run folders (before, then after), reading each once into its tally. */
export async function compareRunFolders(beforeDir: string, afterDir: string, options: CompareRunsOptions): Promise<Comparison> {
  const [before, after] = await Promise.all([readTally(beforeDir), readTally(afterDir)])
  return compareRuns(before, after, options)
}
