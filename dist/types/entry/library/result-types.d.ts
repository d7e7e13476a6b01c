/**
 * What `run()` returns, as plain types: the package's declarations (dist/types) read them without zod
 * or any of convy-ci's internals.
 */
export type { ScenarioStatus } from '../../records/tally/scenario-status.js';
import type { ScenarioStatus } from '../../records/tally/scenario-status.js';
import type { VerdictCounts } from '../../records/journal/verdict-counts.js';
/** How one claim or check did over a scenario's attempts: it held in `held` of `of` decisions. */
export interface Holding {
    held: number;
    of: number;
}
/** An attempt that did not pass, and why, in words a test failure message can show. */
export interface AttemptFailure {
    attempt: number;
    verdict: 'failed' | 'agent_error' | 'no_verdict' | 'user_error' | 'not_decided';
    /** The claims and checks that did not hold, with their reasons, or the error. */
    why: string[];
}
/** Attempts by how they ended, a scenario's or the whole run's. */
export interface VerdictTotals extends VerdictCounts {
    attempts: number;
    /**
     * passed / (passed + failed + agentErrors) for a scenario (an agent that broke did not pass); for
     * the run, the mean over its scenarios, as the report, the comment and the comparison say it. Null
     * when no attempt counts.
     */
    passRate: number | null;
}
/** One line of the dialogue: who said it, the words, and the agent's time and tokens for an answer. */
export interface DialogueLine {
    role: 'user' | 'agent';
    text: string;
    seconds: number;
    tokens: {
        input: number;
        output: number;
    } | null;
    /** Set when this step failed. */
    error: string | null;
    toolCalls?: {
        name: string;
        arguments: unknown;
    }[];
}
/** One attempt, in full: how it ended, what was decided and why, and the conversation itself. */
export interface AttemptResult {
    attempt: number;
    verdict: 'passed' | AttemptFailure['verdict'];
    /** How the conversation ended: user_stop, max_turns, stop_check, agent_error, model_error or interrupted; null in old runs. */
    endedBy: string | null;
    /** Why there is no verdict (agent error, no verdict), in words; null otherwise. */
    error: string | null;
    startedAt: string;
    seconds: number;
    claims: {
        claim: string;
        pass: boolean;
        reason: string;
        votes?: boolean[];
    }[];
    checks: {
        kind: string;
        value: string;
        pass: boolean;
        detail: string;
    }[];
    dialogue: DialogueLine[];
}
export interface ScenarioResult extends VerdictTotals {
    id: string;
    description?: string;
    status: ScenarioStatus;
    claims: ({
        text: string;
    } & Holding)[];
    checks: ({
        kind: string;
        value: string;
    } & Holding)[];
    failures: AttemptFailure[];
    /** Every attempt played, with its dialogue, times, decisions with reasons and how it ended: what a failing test prints. */
    played: AttemptResult[];
}
/** What `run()` returns: plain data, no classes, safe to log or snapshot. Its totals are over every scenario. */
export interface RunResult extends VerdictTotals {
    agent: string;
    /** The run's id, as `convy-ci resume` and `compare` take it. */
    id: string;
    /** The run folder and its report; null when the run was not written (`write: false`). */
    dir: string | null;
    report: string | null;
    /** The run was stopped (signal, budget) before every attempt was played. */
    complete: boolean;
    /** What `convy-ci run` would exit with: 0 every attempt finished, 1 an error or the budget, 130 interrupted. */
    exitCode: number;
    scenarios: ScenarioResult[];
}
/** Two runs compared, as `convy-ci compare` decides it, with the gate's word. */
export interface ComparisonResult {
    /** The runs' ids (`<agent>/<run id>`). */
    before: string;
    after: string;
    /** What the comparison says first: worse, better, within-noise, or why it cannot say (inconclusive, cannot-tell, judge-changed, judge-unstable). */
    standing: string;
    passRate: {
        before: number | null;
        after: number | null;
    };
    worse: string[];
    better: string[];
    notCompared: {
        id: string;
        reason: string;
    }[];
    warnings: string[];
    /** The gate at `failOn`: `fails` is what `convy-ci compare --fail-on` exits 1 for. */
    gate: {
        failOn: 'worse' | 'failing' | 'never';
        outcome: 'pass' | 'fail' | 'inconclusive';
        reason: string;
        fails: boolean;
    };
    /** The whole comparison, as `convy-ci compare --json` prints it. */
    details: Record<string, unknown>;
}
export interface CompareOptions {
    /** What fails the gate; default `worse`, as the action's `fail-on`. */
    failOn?: 'worse' | 'failing' | 'never';
    /** An inconclusive comparison with evidence missing fails too; default true, as the CLI's and the action's (too little to tell never fails). */
    failOnInconclusive?: boolean;
    /** A Worse verdict fails even when the judge changed between the runs; default false. */
    gateAcrossJudgeChange?: boolean;
    /** A baseline older than this many days is warned about; default 7. */
    maxAgeDays?: number;
    /** A percentage: the gate fails too when answers got slower beyond noise by at least this much, overall or in a scenario (`--fail-on-slower`); off by default. */
    failOnSlower?: number;
    /** A percentage: the same for the agent's tokens or dollars per attempt (`--fail-on-costlier`); off by default. */
    failOnCostlier?: number;
    /** Answer times that moved less than this many milliseconds per answer are never told slower or faster (`--min-speed-change`); default 50. */
    minSpeedChangeMs?: number;
}
