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
  const byDecision = new Map<string, Label>()
  const problems: FileError[] = []
  let replaced = 0
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1
    if (raw.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(raw)
    } catch {
      problems.push(new FileError(file, line, 'not a JSON object; each line is {"run", "scenario", "attempt", "claim", "holds"}'))
      return
    }
    const parsed = LabelSchema.safeParse(value, z.PARSE_FEW)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      const where = issue.path.length ? `${issue.path.join('.')}: ` : ''
      problems.push(new FileError(file, line, `${where}${issue.message}`))
      return
    }
    const label: Label = { ...parsed.data, line }
    const key = decisionKey(label)
    if (byDecision.delete(key)) replaced++
    byDecision.set(key, label)
  })
  if (problems.length > PROBLEMS_SHOWN) {
    const more = problems.length - PROBLEMS_SHOWN
    problems.splice(PROBLEMS_SHOWN, more, new FileError(file, undefined, `and ${more} more bad line${more === 1 ? '' : 's'}`))
  }
  if (problems.length === 1) throw problems[0]!
  if (problems.length > 1) throw new InputErrors(problems)
  return { labels: [...byDecision.values()].sort((a, b) => a.line - b.line), replaced }
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
