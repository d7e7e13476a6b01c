export { fakeReply, judgeByRule, scriptedUser, startFakeModelServer, type FakeChatRequest, type FakeModelServer, type FakeModelServerOptions, type FakeReply, type FakeToolCall, type FakeUsage, type RecordedRequest, } from './fake-model-server.js';
/** Ends the conversation when a simulated user's line is, or ends with, it: `'Thanks! ' + STOP_WORD`. */
export declare const STOP_WORD: '###STOP###';
export type { ClaimDecision, DialogueLine, FailedDialogue, JudgeRequest, SimulatedUserRequest, SimulatorMistakeKind, UserReviewFindings, UserReviewRequest } from '../../play/conversation/dialogue.js';
export type { ToolCall } from '../../play/agents/agent.js';
