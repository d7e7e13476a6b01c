import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseFormatJSONSchema } from 'openai/resources/shared';
import type { DialogueLine, JudgeRequest } from '../conversation/dialogue.js';
/** The judge's sampling temperature: the same dialogue should get the same decisions. */
export declare const JUDGE_TEMPERATURE = 0;
/** Structured output for the judge's answer; JSON mode and the prompt ask for the same shape. */
export declare const CLAIM_DECISIONS_SCHEMA: ResponseFormatJSONSchema.JSONSchema;
export declare function judgeMessages(claims: readonly string[], dialogue: readonly DialogueLine[]): ChatCompletionMessageParam[];
/**
 * The same request, asked again after an answer that could not be read. The note makes it a request
 * of its own, so a model cache that kept the unreadable answer does not give it back.
 */
export declare function judgeMessagesAgain(claims: readonly string[], dialogue: readonly DialogueLine[]): ChatCompletionMessageParam[];
/**
 * One JSON line of the conversation or the claims. JSON.stringify leaves `<`, `>`, U+2028 and U+2029
 * as they are; escaped, no text from the agent can spell `</conversation>` or break a line.
 */
export declare function jsonLine(value: unknown): string;
export type { JudgeRequest } from '../conversation/dialogue.js';
/**
 * The claims and dialogue behind a request built by `judgeMessages`, or undefined when the messages
 * are not one. For fake model servers that judge by rule.
 */
export declare function readJudgeRequest(messages: readonly unknown[]): JudgeRequest | undefined;
