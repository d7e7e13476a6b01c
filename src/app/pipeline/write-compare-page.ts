import { createWriteStream, type WriteStream } from 'node:fs'
import { mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Comparison } from '../../verdict/comparison.ts'
import { ATTEMPTS_FILE, shortId } from '../../records/journal/run-folder.ts'
import { readTally } from '../../records/tally/read-tally.ts'
import type { RunTally } from '../../records/tally/run-tally.ts'
import { historyFileBeside, readHistory } from '../../records/tally/trend.ts'
import { removeOldTemporariesOf, STRAY_TEMPORARY_AGE_MS, writeFileAtomic } from '../../base/shared/atomic-file.ts'
import { INLINE_DIALOGUES_MAX_BYTES, type DialogueMode } from '../../views/run/dialogue-blocks.ts'
import { PAGE_END } from '../../views/page/page.ts'
import { comparePageParts, renderComparePage, type ComparePageOptions, type ComparePageRuns } from '../../views/compare/compare-page.ts'
import { closeStream, DialogueSpool, writeChunk } from './dialogue-spool.ts'

/**
 * Writes results/compare/<before>-vs-<after>.html, rendered by views/compare/compare-page.ts: from
 * two runs in memory, or from two run folders, each read once with its dialogues spooled to a file,
 * so memory holds the two tallies but never the attempts.
 */

/** `<before>-vs-<after>.html` by the runs' 4-hex parts, as users type them; anything odd in them made `_`. */
export function comparePageName(c: Pick<Comparison, 'before' | 'after'>): string {
  const safe = (id: string) => shortId(id).replace(/[^A-Za-z0-9._-]/g, '_')
  return `${safe(c.before.id)}-vs-${safe(c.after.id)}.html`
}

async function chooseFolderMode(dirs: { before: string; after: string }): Promise<DialogueMode> {
  const size = async (dir: string) => (await stat(join(dir, ATTEMPTS_FILE)).catch(() => ({ size: 0 }))).size
  return (await size(dirs.before)) + (await size(dirs.after)) <= INLINE_DIALOGUES_MAX_BYTES ? 'inline' : 'lazy'
}

/** Writes the page of two runs held in memory to `<resultsDir>/compare/<before>-vs-<after>.html` and returns its path. */
export async function writeComparePage(resultsDir: string, c: Comparison, runs: ComparePageRuns, options: ComparePageOptions = {}): Promise<string> {
  const dir = join(resultsDir, 'compare')
  await mkdir(dir, { recursive: true })
  const target = join(dir, comparePageName(c))
  await writeFileAtomic(target, renderComparePage(c, runs, options))
  await removeOldTemporariesOf(target, STRAY_TEMPORARY_AGE_MS)
  return target
}

/**
 * Compares two run folders and writes their page: reads each folder once into its tally, spooling
 * the dialogues to a file beside the page, hands the two tallies to `compare`, then writes the page
 * (through a temporary file and a rename) followed by the spooled dialogues.
 */
export async function compareFoldersToPage(
  resultsDir: string,
  dirs: { before: string; after: string },
  compare: (before: RunTally, after: RunTally) => Comparison,
  options: ComparePageOptions = {},
): Promise<{ comparison: Comparison; path: string; tallies: { before: RunTally; after: RunTally } }> {
  const dir = join(resultsDir, 'compare')
  await mkdir(dir, { recursive: true })
  const scratch = await mkdtemp(join(dir, '.compare-'))
  const spool = new DialogueSpool(options.dialogues ?? (await chooseFolderMode(dirs)), join(scratch, 'dialogues'))
  let page: WriteStream | undefined
  try {
    const sides = { before: await readTally(dirs.before, { dialogue: spool.slot }), after: await readTally(dirs.after, { dialogue: spool.slot }) }
    const comparison = compare(sides.before, sides.after)
    if (options.history === undefined) options = { ...options, history: (await readHistory(historyFileBeside(dirs.after))).history }
    const target = join(dir, comparePageName(comparison))
    const pageFile = join(scratch, 'page.html')
    page = createWriteStream(pageFile)
    const gate = options.gate?.(comparison, sides) ?? null
    for (const part of comparePageParts(comparison, sides, spool.mode, options, gate)) await writeChunk(page, part)
    await spool.copyTo(page)
    await writeChunk(page, PAGE_END)
    await closeStream(page)
    await rename(pageFile, target)
    return { comparison, path: target, tallies: sides }
  } finally {
    page?.destroy()
    await spool.dispose()
    await rm(scratch, { recursive: true, force: true })
  }
}
