import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import * as z from '../../base/shared/zod.ts'
import { FileError, InputErrors } from '../../base/shared/errors.ts'

/**
 * labels.jsonl: a person's answer on claim decisions of recorded attempts, one per line (SPEC "Judge
 * labels"). The report's script writes these lines; people append files from several runs and
 * reviewers into one, so a later line about the same decision replaces an earlier one (a correction).
 */
export interface Label {
  /** `<agent>/<run id>`, as run.json's id. */
  run: string
  scenario: string
  /** 1-based. */
  attempt: number
  /** 1-based position of the claim in the scenario's `judge` list. */
  claim: number
  /** The person's answer: the claim holds for this dialogue. */
  holds: boolean
  note?: string
  /** Where it was read: the line of labels.jsonl (1-based). */
  line: number
}

const LabelSchema = z.strictObject({
  run: z.nonEmptyText,
  scenario: z.nonEmptyText,
  attempt: z.int().check(z.positive()),
  claim: z.int().check(z.positive()),
  holds: z.boolean(),
  note: z.optional(z.string().check(z.maxLength(2_000))),
})

/** A labels file is a few hundred lines; more than this many problems are summed up. */
const PROBLEMS_SHOWN = 20

export interface ReadLabels {
  labels: Label[]
  /** Lines that labelled a decision an earlier line had labelled already (the later one counts). */
  replaced: number
}

/** The labels of `text` (the file `file`, for messages). Every bad line is reported at once, `file:line`, exit 2. */
export function parseLabels(file: string, text: string): ReadLabels {
  const reader = new LabelReader(file)
  text.split(/\r?\n/).forEach((raw, index) => reader.add(index + 1, raw))
  return reader.finish()
}

/**
 * The labels of the file at `path`, read a line at a time (a file of hundreds of megabytes is not
 * held whole), stopping at once when `signal` aborts.
 */
export async function readLabels(file: string, path: string, signal?: AbortSignal): Promise<ReadLabels & { sha256: string }> {
  const reader = new LabelReader(file)
  const input = createReadStream(path, { encoding: 'utf8' })
  // The file's fingerprint, of the text as read (what sha256 of the whole text gave).
  const hash = createHash('sha256')
  input.on('data', (chunk) => hash.update(chunk))
  const lines = createInterface({ input, crlfDelay: Infinity })
  try {
    signal?.throwIfAborted()
    let line = 0
    for await (const raw of lines) {
      signal?.throwIfAborted()
      reader.add(++line, raw)
    }
    signal?.throwIfAborted()
  } finally {
    lines.close()
    input.destroy()
  }
  return { ...reader.finish(), sha256: hash.digest('hex') }
}

class LabelReader {
  readonly #byDecision = new Map<string, Label>()
  readonly #problems: FileError[] = []
  #moreProblems = 0
  #replaced = 0
  constructor(readonly file: string) {}

  add(line: number, raw: string): void {
    if (raw.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(raw)
    } catch {
      return this.#problem(line, 'not a JSON object; each line is {"run", "scenario", "attempt", "claim", "holds"}')
    }
    const parsed = LabelSchema.safeParse(value, z.PARSE_FEW)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      const where = issue.path.length ? `${issue.path.join('.')}: ` : ''
      return this.#problem(line, `${where}${issue.message}`)
    }
    const label: Label = { ...parsed.data, line }
    const key = decisionKey(label)
    if (this.#byDecision.delete(key)) this.#replaced++
    this.#byDecision.set(key, label)
  }

  finish(): ReadLabels {
    const problems = this.#problems
    if (this.#moreProblems > 0) problems.push(new FileError(this.file, undefined, `and ${this.#moreProblems} more bad line${this.#moreProblems === 1 ? '' : 's'}`))
    if (problems.length === 1) throw problems[0]!
    if (problems.length > 1) throw new InputErrors(problems)
    return { labels: [...this.#byDecision.values()].sort((a, b) => a.line - b.line), replaced: this.#replaced }
  }

  // Only the first few are kept: a file of garbage has millions.
  #problem(line: number, message: string): void {
    if (this.#problems.length < PROBLEMS_SHOWN) this.#problems.push(new FileError(this.file, line, message))
    else this.#moreProblems++
  }
}

/** One decision of one attempt: what a label names. */
export function decisionKey(label: Pick<Label, 'run' | 'scenario' | 'attempt' | 'claim'>): string {
  return JSON.stringify([label.run, label.scenario, label.attempt, label.claim])
}

/** A label as a line of labels.jsonl, in the order the SPEC writes it (the page's script writes the same). */
export function labelLine(label: Omit<Label, 'line'>): string {
  const { run, scenario, attempt, claim, holds, note } = label
  return JSON.stringify({ run, scenario, attempt, claim, holds, ...(note ? { note } : {}) })
}
