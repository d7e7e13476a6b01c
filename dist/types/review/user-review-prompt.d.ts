import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseFormatJSONSchema } from 'openai/resources/shared';
import type { UserReviewRequest } from '../conversation/dialogue.js';
/** The reviewer's sampling temperature: the same failed attempt should get the same findings. */
export declare const REVIEW_TEMPERATURE = 0;
/** Structured output for the reviewer's answer; JSON mode and the prompt ask for the same shape. */
export declare const USER_REVIEW_SCHEMA: ResponseFormatJSONSchema.JSONSchema;
export declare function userReviewMessages({ instructions, dialogue, failures, ending }: UserReviewRequest): ChatCompletionMessageParam[];
/**
 * The request behind messages built by `userReviewMessages`, or undefined when they are not one.
 * For fake model servers that review by rule.
 */
export declare function readUserReviewRequest(messages: readonly unknown[]): UserReviewRequest | undefined;
