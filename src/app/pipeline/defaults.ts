/** The run settings' defaults: the same for `convy-ci run`'s options and the action's inputs. */
export const RUN_DEFAULTS = { k: 1, parallel: 4, turnTimeoutSeconds: 600 } as const
