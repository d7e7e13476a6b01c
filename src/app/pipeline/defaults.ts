/**
 * The run settings' defaults of `convy-ci run` and the library's run(). The action shares parallel and
 * turnTimeoutSeconds but plays 5 attempts per scenario by default, not 1 (ACTION_DEFAULT_ATTEMPTS in
 * src/entry/options/run-options.ts).
 */
export const RUN_DEFAULTS = { k: 1, parallel: 4, turnTimeoutSeconds: 600 } as const

/** run --adaptive (issue 39): k attempts per scenario first, then rounds up to maxAttempts where the comparison is undecided. */
export const ADAPTIVE_DEFAULTS = { k: 3, maxAttempts: 10 } as const
