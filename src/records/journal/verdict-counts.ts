// Apart from attempt-facts.ts, and importing nothing, so the package's declarations
// (entry/library/result-types.ts) take the type without the records behind an attempt.

/**
 * Attempts by how they ended: the one count of verdicts that the tally, the report's figures, the
 * comparison, the CLI's progress and the library's results all derive from (`extends`, `Pick`).
 */
export interface VerdictCounts {
  passed: number
  failed: number
  agentErrors: number
  noVerdicts: number
  /** Failed by the simulated user's own mistake: counted apart, neither passed nor failed. */
  userErrors: number
  /** Nothing was asked that could decide them (no check, and the judge not asked): neither passed nor failed. */
  notDecided: number
}

export const VERDICT_COUNT_KEYS = ['passed', 'failed', 'agentErrors', 'noVerdicts', 'userErrors', 'notDecided'] as const satisfies readonly (keyof VerdictCounts)[]

export function emptyVerdictCounts(): VerdictCounts {
  return { passed: 0, failed: 0, agentErrors: 0, noVerdicts: 0, userErrors: 0, notDecided: 0 }
}

/** Every attempt counted, whatever its verdict. */
export function countedAttempts(counts: VerdictCounts): number {
  return VERDICT_COUNT_KEYS.reduce((sum, key) => sum + counts[key], 0)
}
