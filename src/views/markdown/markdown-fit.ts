import { markdownTable } from 'markdown-table'
import { plural } from '../page/format.ts'

/** A titled table of scenarios; folded ones go inside <details>. */
export interface Section {
  title: string
  header: string[]
  rows: string[][]
  folded: boolean
}

export function table(rows: readonly (readonly string[])[]): string {
  return markdownTable(rows, { alignDelimiters: false })
}

/**
 * Fits the sections into `budget` characters (the blank lines between them included), in order of
 * importance: each takes as many rows as fit while leaving the later ones room to say, at least,
 * how many scenarios they could not show. A section returns '' only when not even that fits.
 */
export function fitSections(sections: readonly Section[], budget: number, reportUrl: string | null): string[] {
  const smallest = sections.map((section) => wrap(section, leftOut(section.rows.length, false, reportUrl)).length + 2)
  let remaining = budget
  return sections.map((section, index) => {
    const reserve = smallest.slice(index + 1).reduce((sum, size) => sum + size, 0)
    const text = fitSection(section, remaining - reserve - 2, reportUrl)
    if (text) remaining -= text.length + 2
    return text
  })
}

function fitSection(section: Section, budget: number, reportUrl: string | null): string {
  const { header, rows } = section
  const showing = (shown: number) => {
    if (shown === rows.length) return wrap(section, table([header, ...rows]))
    if (shown === 0) return wrap(section, leftOut(rows.length, false, reportUrl))
    return wrap(section, `${table([header, ...rows.slice(0, shown)])}\n\n${leftOut(rows.length - shown, true, reportUrl)}`)
  }
  const everything = showing(rows.length)
  if (everything.length <= budget) return everything
  // The longest prefix of rows that fits: lengths grow with the rows shown, so search by halves.
  let low = 0
  let high = rows.length - 1
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if (showing(middle).length <= budget) low = middle
    else high = middle - 1
  }
  const text = showing(low)
  return text.length <= budget ? text : ''
}

function wrap(section: Section, body: string): string {
  return section.folded ? `<details><summary>${section.title}</summary>\n\n${body}\n\n</details>` : `${section.title}\n\n${body}`
}

function leftOut(count: number, someShown: boolean, reportUrl: string | null): string {
  const report = reportUrl ? `[full report](${reportUrl})` : 'full report'
  return someShown ? `…and ${plural(count, 'more scenario')}, listed in the ${report}.` : `${plural(count, 'scenario')}: too many to list here; see the ${report}.`
}
