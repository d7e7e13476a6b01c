import type { Agent } from '../../play/agents/agent.js';
/** A check as a scenario file writes it. */
export type CheckInput = {
    contains: string;
} | {
    not_contains: string;
    fatal?: boolean;
} | {
    regex: string;
} | {
    tool_called: string;
} | {
    tool_not_called: string;
    fatal?: boolean;
};
/** A scenario written in code: the YAML file's keys, checked by the same rules. */
export interface ScenarioInput {
    id: string;
    description?: string;
    max_turns?: number;
    user?: string;
    script?: string[];
    judge?: string[];
    checks?: CheckInput[];
    tags?: string[];
}
export interface RunOptions {
    /** A name from convy.yml (or `echo`), or an agent written in code (`defineAgent({ … })`). */
    agent: string | Agent;
    /** The name an agent given in code runs under (its run folder's name); default `agent`. */
    name?: string;
    /** Globs of the project's scenario ids (`'refund-*'`) and scenarios written in code; default: every scenario of the project. */
    scenarios?: readonly (string | ScenarioInput)[];
    /** Only the project's scenarios with one of these tags. */
    tags?: readonly string[];
    /** Attempts per scenario; default 1. */
    k?: number;
    /** Attempts played at once; default 4. */
    parallel?: number;
    /** Seconds for each step of the agent; default 600. */
    turnTimeout?: number;
    /** The agent answers for real, the user's lines come from the script, no model is called. */
    smoke?: boolean;
    /** How convy-ci's model answers are kept in `.convy/cache/`; default off. */
    cache?: 'off' | 'read' | 'write' | 'readwrite';
    budgetUsd?: number;
    /** Review failed attempts of the simulated user for its own mistakes (user errors); default: convy.yml's `models.review`. */
    review?: boolean;
    /** Ask the judge this many times per attempt; each claim is decided by the majority (`--judge-samples`); default 1. */
    judgeSamples?: number;
    /** Play the `index`-th (1-based) of `total` balanced slices of the attempts, as `--shard I/N`. */
    shard?: {
        index: number;
        total: number;
    };
    /** convy.yml; default: the nearest one from `cwd` upward. */
    config?: string;
    /** Where relative paths start and convy.yml is looked for; default the process's working directory. */
    cwd?: string;
    /** Where run folders go; default results/ beside convy.yml. */
    results?: string;
    /** Write the run folder, its report and results/index.html, as the CLI does; default true. */
    write?: boolean;
    /** Variables for `${NAME}` in convy.yml; default the process's environment (and the project's .env). */
    env?: Readonly<Record<string, string | undefined>>;
    /** convy.yml's `models:` section, in its shape (`base_url`, `api_key`, `user`, `judge`, …): replaces the file's. */
    models?: Readonly<Record<string, unknown>>;
    /** Aborting stops the run; finished attempts are kept. */
    signal?: AbortSignal;
    /** Where what `convy-ci run` prints goes (progress, warnings, the summary); default nowhere: the result says it. */
    output?: {
        write(text: string): void;
    };
    /** Also the dialogue as it happens, then the decisions, to `output` (as `convy-ci run --verbose`). */
    verbose?: boolean;
}
/** Checks run()'s options as convy.yml is checked: every problem at once, each naming its key. */
export declare function checkOptions(options: unknown): RunOptions;
