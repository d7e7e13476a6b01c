import { maskDeep, noMask, type Mask } from '../../base/shared/secrets.ts'
import type { Attempt, RunManifest } from '../journal/records.ts'
import { readAttempts, readManifest } from '../journal/read-run.ts'
import { addAttempt, finishTally, startTally, type DialogueSlot, type RunTally } from './run-tally.ts'

export interface ReadTallyOptions {
  /** Fills each attempt's dialogue slot as it is read, for a page; the attempt is not kept. */
  dialogue?: (attempt: Attempt) => DialogueSlot | Promise<DialogueSlot>
  /** The run as it should be counted; default: its run.json. A run being ended is counted in its end state. */
  manifest?: RunManifest
  /** Every line was written by this process: see readAttempts. */
  ownLines?: boolean
  /**
   * For a run this job did not record (a pull request's artifact): masked as it is read, before any
   * view quotes, cleans or cuts its text, which could leave a piece of a secret no mask finds.
   */
  mask?: Mask
}

/**
 * Reads a run folder once: run.json, then attempts.jsonl one line at a time into the tally. Nothing
 * else needs the attempts afterwards, so a command that reports, compares and summarises a run reads
 * it here and only here.
 */
export async function readTally(dir: string, options: ReadTallyOptions = {}): Promise<RunTally> {
  const mask = options.mask ?? noMask
  const tally = startTally(options.manifest ?? maskDeep(await readManifest(dir), mask))
  for await (const read of readAttempts(dir, () => tally.skippedLines++, { ownLines: options.ownLines })) {
    const attempt = maskDeep(read, mask)
    addAttempt(tally, attempt, options.dialogue ? await options.dialogue(attempt) : undefined)
  }
  return finishTally(tally)
}
