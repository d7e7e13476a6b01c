import { MASKED, type Mask } from '../../base/shared/secrets.ts'
import type { Scenario } from '../scenario/scenario.ts'

/**
 * run.json keeps a copy of each scenario it plays, and the report shows it: a secret typed literally
 * in a scenario (a token in `script:`, a card number in `context:`) that matches one the project
 * reads, or a `redact:` pattern, is masked in that copy as in everything else. Only the texts are
 * masked: keys and numbers are the scenario's shape (`max_turns`, a limit), and a resume must read
 * the copy back as a scenario.
 */
export function maskScenarioCopies(scenarios: readonly Scenario[], mask: Mask): Scenario[] {
  return scenarios.map((scenario) => maskTexts(scenario, mask) as Scenario)
}

function maskTexts(value: unknown, mask: Mask): unknown {
  if (typeof value === 'string') return mask(value)
  if (Array.isArray(value)) return value.map((item) => maskTexts(item, mask))
  if (value === null || typeof value !== 'object') return value
  const masked: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) if (item !== undefined) masked[key] = maskTexts(item, mask)
  return masked
}

/**
 * The scenario as its file says it, where the file still says what the copy in run.json was made
 * from: each text of the copy equals the file's, or is the file's with some spans masked (each `***`
 * stands for any text). A resume or a replay then plays what the user wrote, not `***`; a scenario
 * whose file changed or went away is played from its copy, as it was recorded.
 */
export function restoreScenarioCopies(copies: readonly Scenario[], files: ReadonlyMap<string, Scenario>): { scenarios: Scenario[]; masked: string[] } {
  const masked: string[] = []
  const scenarios = copies.map((copy) => {
    const file = files.get(copy.id)
    if (file === undefined || !fits(copy, JSON.parse(JSON.stringify(file)))) {
      if (JSON.stringify(copy).includes(MASKED)) masked.push(copy.id)
      return copy
    }
    return file
  })
  return { scenarios, masked }
}

/** The copy's shape and numbers are the original's, and each of its texts is the original's but for masked spans. */
function fits(copy: unknown, original: unknown): boolean {
  if (typeof copy === 'string') return typeof original === 'string' && (copy === original || (copy.includes(MASKED) && maskedFrom(copy, original)))
  if (Array.isArray(copy)) return Array.isArray(original) && copy.length === original.length && copy.every((item, i) => fits(item, original[i]))
  if (copy === null || typeof copy !== 'object') return copy === original
  if (original === null || typeof original !== 'object' || Array.isArray(original)) return false
  const keys = Object.keys(copy).filter((key) => (copy as Record<string, unknown>)[key] !== undefined)
  const originalKeys = Object.keys(original).filter((key) => (original as Record<string, unknown>)[key] !== undefined)
  return keys.length === originalKeys.length && keys.every((key) => Object.hasOwn(original, key) && fits((copy as Record<string, unknown>)[key], (original as Record<string, unknown>)[key]))
}

/** Whether `copy` is `original` with spans replaced by MASKED: its pieces between the masks, in order, with something masked between them. */
function maskedFrom(copy: string, original: string): boolean {
  const pieces = copy.split(MASKED)
  if (!original.startsWith(pieces[0]!) || !original.endsWith(pieces.at(-1)!)) return false
  let at = pieces[0]!.length
  const end = original.length - pieces.at(-1)!.length
  for (const piece of pieces.slice(1, -1)) {
    // Greedy-free: the first place it fits after at least one masked character.
    const found = original.indexOf(piece, at + 1)
    if (found < 0 || found + piece.length > end) return false
    at = found + piece.length
  }
  return end > at
}
