import { randomBytes } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'

/**
 * Where a run lives: results/<agent>/<YYYY-MM-DDTHH-MM-SS>_<4 hex>/. The id is the folder's name
 * prefixed by the agent, so it is unique across agents and sorts by time within one.
 */
export const RUN_FILE = 'run.json'
export const ATTEMPTS_FILE = 'attempts.jsonl'
export const REPORT_FILE = 'report.html'
/** Present while a process writes the run (run, resume, report, merge); see folder-lock.ts. */
export const LOCK_FILE = 'run.lock'

export interface RunLocation {
  /** `<agent>/<stamp>_<hex>`: what users type, and what run.json records. */
  id: string
  dir: string
  /** The uppermost folder made to hold it (results/, results/<agent>/), if any was: a discarded run removes them again. */
  madeParent?: string | undefined
}

export type RandomHex = () => string

export function newRunId(agent: string, now: Date, random: RandomHex = () => randomBytes(2).toString('hex')): string {
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

const CLAIM_TRIES = 64

/**
 * Creates a new run's folder and returns its id: `preferred` when that folder does not exist yet,
 * else the same agent and second with other hex. Creating the folder is what claims the id, so two
 * runs started in the same second never share a folder.
 */
export async function claimRunFolder(resultsDir: string, preferred: string, agent: string, startedAt: Date, random?: RandomHex): Promise<RunLocation> {
  let id = preferred
  let madeParent: string | undefined
  for (let attempt = 0; attempt < CLAIM_TRIES; attempt++) {
    const dir = runDir(resultsDir, id)
    madeParent ??= await mkdir(dirname(dir), { recursive: true })
    try {
      await mkdir(dir)
      return { id, dir, madeParent }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    id = newRunId(agent, startedAt, random)
  }
  throw new Error(`no free run id for ${agent} at ${startedAt.toISOString()} after ${CLAIM_TRIES} tries in ${resultsDir}`)
}
