import { createWriteStream, type WriteStream } from 'node:fs'
import { rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { RunManifest } from '../../records/journal/records.ts'
import { ATTEMPTS_FILE, REPORT_FILE } from '../../records/journal/run-folder.ts'
import { temporaryPath } from '../../base/shared/atomic-file.ts'
import { readTally } from '../../records/tally/read-tally.ts'
import type { RunTally } from '../../records/tally/run-tally.ts'
import { historyFileBeside, readHistory } from '../../records/tally/trend.ts'
import type { Calibration } from '../../records/calibration/calibration.ts'
import { INLINE_DIALOGUES_MAX_BYTES, type DialogueMode } from '../../views/run/dialogue-blocks.ts'
import { PAGE_END } from '../../views/page/page.ts'
import { runReportHead } from '../../views/run/run-report.ts'
import { closeStream, DialogueSpool, writeChunk } from './dialogue-spool.ts'

/**
 * Writes a run's report.html from its folder. Attempts are read once, in the order they ended: each
 * one updates the tally (counts and decisions, kept for the summary) and, in a large run, leaves its
 * dialogue as a data block spooled to a file. The page's head (views/run/run-report.ts) is written
 * once the tally is complete, followed by those blocks, so memory holds the summary but never the run.
 */

async function chooseMode(runDir: string): Promise<DialogueMode> {
  try {
    return (await stat(join(runDir, ATTEMPTS_FILE))).size <= INLINE_DIALOGUES_MAX_BYTES ? 'inline' : 'lazy'
  } catch {
    return 'inline'
  }
}

/**
 * Writes `<runDir>/report.html` (through a temporary file and a rename, so a reader never sees half a
 * page) and returns its path. Works on finished, interrupted and running runs alike.
 */
export interface WriteReportOptions {
  dialogues?: DialogueMode
  /** The run as the page should show it; default: its run.json. A run being ended shows its end state. */
  manifest?: RunManifest
  /** Every line of attempts.jsonl was written by this process: see readAttempts. */
  ownLines?: boolean
  /** The project's judge calibration, cited on the page (views/run/run-report.ts). */
  calibration?: Calibration | null
}

export async function writeRunReport(runDir: string, options: WriteReportOptions = {}): Promise<string> {
  return (await writeRunReportAndTally(runDir, options)).path
}

/** The same, with the run's tally that the page was made from: a caller that also summarises or compares the run reads attempts.jsonl once. */
export async function writeRunReportAndTally(runDir: string, options: WriteReportOptions = {}): Promise<{ path: string; tally: RunTally }> {
  const target = join(runDir, REPORT_FILE)
  // Names of this writer's own: a killed writer's leftovers are removed by the next one to lock the run.
  const pageFile = temporaryPath(target)
  const spool = new DialogueSpool(options.dialogues ?? (await chooseMode(runDir)), temporaryPath(`${target}.data`))
  let page: WriteStream | undefined
  try {
    const tally = await readTally(runDir, { dialogue: spool.slot, manifest: options.manifest, ownLines: options.ownLines })
    // The default branch's trend, when the action or `convy-ci baseline --history` left one beside the runs.
    const { history } = await readHistory(historyFileBeside(runDir))
    page = createWriteStream(pageFile)
    await writeChunk(page, runReportHead(tally, spool.mode, options.calibration ?? null, history))
    await spool.copyTo(page)
    await writeChunk(page, PAGE_END)
    await closeStream(page)
    await rename(pageFile, target)
    return { path: target, tally }
  } finally {
    page?.destroy()
    await spool.dispose()
    await rm(pageFile, { force: true })
  }
}
