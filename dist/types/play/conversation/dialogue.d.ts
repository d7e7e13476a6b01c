import type { ToolCall } from '../agents/agent.js';
/**
 * The dialogue as convy-ci's models see it, and what they answer. Plain types with no imports beyond
 * the agent's: `convy-ci/testing` publishes them, so its declarations need neither zod nor openai.
 */
export interface DialogueLine {
    role: 'user' | 'agent';
    text: string;
    /**
     * An agent line's tool calls, where its protocol shows them, and those convy-ci's own tools served
     * during it (`served`, with the tool error and the fault injected): the judge sees them, the
     * simulated user does not.
     */
    toolCalls?: readonly (ToolCall & {
        served?: true;
        error?: string;
        fault?: string;
    })[];
}
export interface ClaimDecision {
    pass: boolean;
    reason: string;
    /** One decision per judge sample when the judge was asked more than once; `pass` is their majority. */
    votes?: boolean[];
}
/** What convy-ci asks its simulated user: its instructions and the dialogue so far. */
export interface SimulatedUserRequest {
    instructions: string;
    dialogue: DialogueLine[];
    /** The attempt's context, when it has one: what set-up made and the scenario gave (their order number). */
    context?: Record<string, unknown>;
}
/** What the review of a failed attempt may blame on the simulated user. */
export type SimulatorMistakeKind = 'revealed_early' | 'invented_fact' | 'stopped_early' | 'broke_character' | 'ignored_instructions';
/** A failed attempt as its reviewer sees it: the whole dialogue, why it failed, how it ended. */
export interface FailedDialogue {
    dialogue: DialogueLine[];
    /** The failed claims and checks, each in words with the judge's reason or the check's detail. */
    failures: string[];
    /** How the conversation ended, in words: the user ended it, or it was cut off at max_turns. */
    ending: string;
}
/** What convy-ci asks its reviewer: the simulated user's instructions and the failed attempt. */
export interface UserReviewRequest extends FailedDialogue {
    instructions: string;
}
/** The reviewer's findings: the simulated user's mistakes, and whether one decided the attempt. */
export interface UserReviewFindings {
    mistakes: {
        kind: SimulatorMistakeKind;
        line: number;
        note: string;
    }[];
    decided: boolean;
    reason: string;
}
/** What convy-ci asks its judge: the claims, in order, and the whole dialogue. */
export interface JudgeRequest {
    claims: string[];
    dialogue: DialogueLine[];
    /** The attempt's context, when it has one. */
    context?: Record<string, unknown>;
}
