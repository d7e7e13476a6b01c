import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseFormatJSONSchema } from 'openai/resources/shared';
import type { DialogueLine, JudgeRequest } from '../conversation/dialogue.js';
/** Structured output for the judge's answer; JSON mode and the prompt ask for the same shape. */
export declare const CLAIM_DECISIONS_SCHEMA: ResponseFormatJSONSchema.JSONSchema;
export declare function judgeMessages(claims: readonly string[], dialogue: readonly DialogueLine[]): ChatCompletionMessageParam[];
export type { JudgeRequest } from '../conversation/dialogue.js';
/**
 * The claims and dialogue behind a request built by `judgeMessages`, or undefined when the messages
 * are not one. For fake model servers that judge by rule.
 */
export declare function readJudgeRequest(messages: readonly unknown[]): JudgeRequest | undefined;
