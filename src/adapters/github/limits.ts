/**
 * GitHub's size limits on what the action writes. Markdown is cut at a line boundary with a note, so
 * a cut never leaves half a table row or an open tag's worth of garbage at the end.
 */

/** Issue and pull request comments: GitHub answers 422 "Body is too long" above this. */
export const COMMENT_CHARACTERS = 65_536
/** A check run's output.summary (and output.text). */
export const CHECK_SUMMARY_CHARACTERS = 65_535
/** A step's job summary: above 1 MiB GitHub drops it with an error annotation. */
export const STEP_SUMMARY_BYTES = 1024 * 1024

export function fitCharacters(text: string, limit: number, note: string): string {
  if (text.length <= limit) return text
  return cutAtLine(text, limit - note.length - 2, (part) => part.length) + `\n\n${note}`
}

export function fitBytes(text: string, limit: number, note: string): string {
  const bytes = (part: string) => Buffer.byteLength(part, 'utf8')
  if (bytes(text) <= limit) return text
  return cutAtLine(text, limit - bytes(note) - 2, bytes) + `\n\n${note}`
}

function cutAtLine(text: string, budget: number, size: (part: string) => number): string {
  // Characters are at most 4 UTF-8 bytes (or 2 UTF-16 units), so this start is never too long.
  let end = Math.min(text.length, Math.max(0, budget))
  while (end > 0 && size(text.slice(0, end)) > budget) end = Math.floor(end * 0.9)
  const cut = text.lastIndexOf('\n', end)
  return text.slice(0, cut > 0 ? cut : end).trimEnd()
}
