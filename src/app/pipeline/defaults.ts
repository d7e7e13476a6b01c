/**
 * The run settings' defaults of `convy-ci run` and the library's run(). The action shares parallel and
 * turnTimeoutSeconds but plays 5 attempts per scenario by default, not 1 (ACTION_DEFAULT_ATTEMPTS in
 * src/entry/options/run-options.ts).
 */
export const RUN_DEFAULTS = { k: 1, parallel: 4, turnTimeoutSeconds: 600 } as const
