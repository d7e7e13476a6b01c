/**
 * The q-quantile of values, interpolated linearly between the two nearest ranks (R's type 7, the
 * spreadsheet's PERCENTILE): the median is the middle value, or the mean of the two middle ones.
 * Null without values.
 */
export function quantile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const at = (sorted.length - 1) * q
  const low = Math.floor(at)
  return sorted[low]! + (sorted[Math.min(low + 1, sorted.length - 1)]! - sorted[low]!) * (at - low)
}

export function median(values: readonly number[]): number | null {
  return quantile(values, 0.5)
}
