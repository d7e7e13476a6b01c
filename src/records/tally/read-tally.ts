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
}

/**
 * Reads a run folder once: run.json, then attempts.jsonl one line at a time into the tally. Nothing
 * else needs the attempts afterwards, so a command that reports, compares and summarises a run reads
 * it here and only here.
 */
export async function readTally(dir: string, options: ReadTallyOptions = {}): Promise<RunTally> {
  const tally = startTally(options.manifest ?? (await readManifest(dir)))
  for await (const attempt of readAttempts(dir, () => tally.skippedLines++, { ownLines: options.ownLines })) {
    addAttempt(tally, attempt, options.dialogue ? await options.dialogue(attempt) : undefined)
  }
  return finishTally(tally)
}
