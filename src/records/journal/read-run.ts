import { createReadStream } from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { InputError } from '../../base/shared/errors.ts'
import { ATTEMPTS_FILE, RUN_FILE, runDir, shortId, type RunLocation } from './run-folder.ts'
import { RUN_FORMAT, AttemptSchema, RunManifestSchema, type Attempt, type RunManifest } from './records.ts'

export async function readManifest(dir: string): Promise<RunManifest> {
  const file = join(dir, RUN_FILE)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    throw new InputError(`${file}: not found; is ${dir} a run folder?`)
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new InputError(`${file}: not valid JSON (${(error as Error).message})`)
  }
  const format = (data as { format?: unknown } | null)?.format
  if (format !== RUN_FORMAT) {
    throw new InputError(`${file}: run format ${String(format)} is not one this convy-ci reads (it reads ${RUN_FORMAT}); use the convy-ci version that wrote it`)
  }
  const parsed = RunManifestSchema.safeParse(data)
  if (!parsed.success) throw new InputError(`${file}: not a valid run.json: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`)
  return parsed.data
}

/**
 * Streams attempts.jsonl one attempt at a time, so memory stays flat at any run size. A line that is
 * not a complete attempt is skipped: a torn last line is what a killed process leaves behind, and
 * resume plays that attempt again.
 *
 * `ownLines`: every line was written by this process's journal (RunJournal.wroteEveryLine), from
 * records that are attempts by construction, so each is parsed without the schema. That check, cold,
 * was most of the report's cost after a short run (bench/runner.ts, "after the last answer").
 */
export async function* readAttempts(dir: string, onSkipped?: (lineNumber: number) => void, options: { ownLines?: boolean } = {}): AsyncGenerator<Attempt> {
  const file = join(dir, ATTEMPTS_FILE)
  try {
    await stat(file)
  } catch {
    return
  }
  // Loaded when a run is read back, not with every command that may write one.
  const { createInterface } = await import('node:readline')
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity })
  let lineNumber = 0
  for await (const line of lines) {
    lineNumber++
    if (line.trim() === '') continue
    let parsed: ReturnType<typeof AttemptSchema.safeParse>
    try {
      const value: unknown = JSON.parse(line)
      if (options.ownLines) {
        yield value as Attempt
        continue
      }
      parsed = AttemptSchema.safeParse(value)
    } catch {
      onSkipped?.(lineNumber)
      continue
    }
    if (parsed.success) yield parsed.data
    else onSkipped?.(lineNumber)
  }
}

export async function readAllAttempts(dir: string): Promise<Attempt[]> {
  const attempts: Attempt[] = []
  for await (const attempt of readAttempts(dir)) attempts.push(attempt)
  return attempts
}

/** Every run folder under results/, found by its run.json. */
export async function listRuns(resultsDir: string): Promise<RunLocation[]> {
  const found: RunLocation[] = []
  let agents: string[]
  try {
    agents = await readdir(resultsDir)
  } catch {
    return []
  }
  for (const agent of agents) {
    if (agent === 'compare') continue
    let stamps: string[]
    try {
      stamps = await readdir(join(resultsDir, agent))
    } catch {
      continue
    }
    for (const stamp of stamps) {
      const dir = join(resultsDir, agent, stamp)
      try {
        await stat(join(dir, RUN_FILE))
        found.push({ id: relative(resultsDir, dir).split(sep).join('/'), dir })
      } catch {
        // not a run folder
      }
    }
  }
  return found.sort((a, b) => a.id.localeCompare(b.id))
}

/**
 * Finds a run by what a user typed: a full id (`support_bot/2026-…_a1b2`), its 4-hex part, or the path
 * of a run folder. Ambiguous or unknown references are input errors that list what would match.
 */
export async function findRun(resultsDir: string, reference: string): Promise<RunLocation> {
  try {
    if ((await stat(join(reference, RUN_FILE))).isFile()) {
      const manifest = await readManifest(reference)
      return { id: manifest.id, dir: reference }
    }
  } catch {
    // not a path to a run folder; try it as an id
  }
  const runs = await listRuns(resultsDir)
  const exact = runs.find((r) => r.id === reference)
  if (exact) return exact
  const matches = runs.filter((r) => shortId(r.id) === reference || r.id.endsWith(`/${reference}`))
  if (matches.length === 1) return matches[0]!
  if (matches.length > 1) throw new InputError(`run "${reference}" is ambiguous: ${matches.map((m) => m.id).join(', ')}; give the full id`)
  throw new InputError(`no run "${reference}" in ${resultsDir}${runs.length ? ` (latest: ${runs.at(-1)!.id})` : ' (it has no runs yet)'}`)
}

export { runDir }
