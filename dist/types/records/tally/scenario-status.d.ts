import type { VerdictCounts } from '../journal/verdict-counts.js';
/**
 * As the report says it: failing, flaky, passing, or, with no attempt passed or failed, why: agent
 * error, no verdict (convy-ci's models failed), user error, not decided.
 */
export type ScenarioStatus = 'failing' | 'flaky' | 'passing' | 'agent_error' | 'no_verdict' | 'user_error' | 'not_decided';
/** The counts a status is decided on. */
export type StatusCounts = Pick<VerdictCounts, 'passed' | 'failed' | 'agentErrors' | 'noVerdicts' | 'userErrors'>;
/**
 * Passed and failed attempts decide a scenario's status. With none, the status says why, by the one
 * word for each reason (views/page/verdict-words.ts): the agent failed before convy-ci's models, a
 * model before the simulated user's mistakes, and those before attempts that asked for nothing.
 */
export declare function scenarioStatus(c: StatusCounts): ScenarioStatus;
