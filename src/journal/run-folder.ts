import { randomBytes } from 'node:crypto'
import { join } from 'node:path'

/**
 * Where a run lives: results/<agent>/<YYYY-MM-DDTHH-MM-SS>_<4 hex>/. The id is the folder's name
 * prefixed by the agent, so it is unique across agents and sorts by time within one.
 */
export const RUN_FILE = 'run.json'
export const ATTEMPTS_FILE = 'attempts.jsonl'
export const REPORT_FILE = 'report.html'

export interface RunLocation {
  /** `<agent>/<stamp>_<hex>`: what users type, and what run.json records. */
  id: string
  dir: string
}

export function newRunId(agent: string, now: Date, random: () => string = () => randomBytes(2).toString('hex')): string {
  const stamp = now.toISOString().slice(0, 19).replaceAll(':', '-')
  return `${agent}/${stamp}_${random()}`
}

export function runDir(resultsDir: string, runId: string): string {
  return join(resultsDir, ...runId.split('/'))
}

/** The 4-hex part of an id: what `convy-ci resume a1b2` matches. */
export function shortId(runId: string): string {
  return runId.slice(runId.lastIndexOf('_') + 1)
}
