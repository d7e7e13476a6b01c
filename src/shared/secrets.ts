/**
 * Values read from the environment may be secrets. Everything that leaves the process as text
 * (error messages recorded in attempts, logs) goes through a mask built from those values.
 */
export type Mask = (text: string) => string

const SHORTEST_MASKED = 4

export function createMask(secretValues: Iterable<string>): Mask {
  // Longest first, so a secret that contains another is replaced whole.
  const values = [...new Set(secretValues)].filter((v) => v.length >= SHORTEST_MASKED).sort((a, b) => b.length - a.length)
  if (values.length === 0) return (text) => text
  return (text) => {
    let masked = text
    for (const value of values) masked = masked.split(value).join('***')
    return masked
  }
}

export const noMask: Mask = (text) => text
