/**
 * `convy-ci/testing`: the fake OpenAI-compatible model server convy-ci's own tests use, for users who
 * test their agents and scenarios offline. It is a real HTTP server on 127.0.0.1: point convy.yml's
 * `models.base_url` (or `run({ models })`) at its `url` and convy-ci talks to it as to any gateway.
 */
import { STOP_WORD as STOP } from '../../play/simulated-user/simulated-user-prompt.ts'

export {
  fakeReply,
  judgeByRule,
  scriptedUser,
  startFakeModelServer,
  type FakeChatRequest,
  type FakeModelServer,
  type FakeModelServerOptions,
  type FakeReply,
  type FakeToolCall,
  type FakeUsage,
  type RecordedRequest,
} from './fake-model-server.ts'
/** Ends the conversation when a simulated user's line is, or ends with, it: `'Thanks! ' + STOP_WORD`. */
export const STOP_WORD: '###STOP###' = STOP
export type { ClaimDecision, DialogueLine, FailedDialogue, JudgeRequest, SimulatedUserRequest, SimulatorMistakeKind, UserReviewFindings, UserReviewRequest } from '../../play/conversation/dialogue.ts'
export type { ToolCall } from '../../play/agents/agent.ts'
