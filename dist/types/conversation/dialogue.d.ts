import type { ToolCall } from '../agents/agent.js';
/**
 * The dialogue as convy-ci's models see it, and what they answer. Plain types with no imports beyond
 * the agent's: `convy-ci/testing` publishes them, so its declarations need neither zod nor openai.
 */
export interface DialogueLine {
    role: 'user' | 'agent';
    text: string;
    /** An agent line's tool calls, where its protocol shows them: the judge sees them, the simulated user does not. */
    toolCalls?: readonly ToolCall[];
}
export interface ClaimDecision {
    pass: boolean;
    reason: string;
}
/** What convy-ci asks its simulated user: its instructions and the dialogue so far. */
export interface SimulatedUserRequest {
    instructions: string;
    dialogue: DialogueLine[];
}
/** What convy-ci asks its judge: the claims, in order, and the whole dialogue. */
export interface JudgeRequest {
    claims: string[];
    dialogue: DialogueLine[];
}
