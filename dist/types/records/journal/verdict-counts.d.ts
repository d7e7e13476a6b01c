/**
 * Attempts by how they ended: the one count of verdicts that the tally, the report's figures, the
 * comparison, the CLI's progress and the library's results all derive from (`extends`, `Pick`).
 */
export interface VerdictCounts {
    passed: number;
    failed: number;
    agentErrors: number;
    noVerdicts: number;
    /** Failed by the simulated user's own mistake: counted apart, neither passed nor failed. */
    userErrors: number;
    /** Nothing was asked that could decide them (no check, and the judge not asked): neither passed nor failed. */
    notDecided: number;
}
export declare const VERDICT_COUNT_KEYS: readonly ["passed", "failed", "agentErrors", "noVerdicts", "userErrors", "notDecided"];
export declare function emptyVerdictCounts(): VerdictCounts;
/** Every attempt counted, whatever its verdict. */
export declare function countedAttempts(counts: VerdictCounts): number;
