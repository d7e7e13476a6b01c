import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { DialogueLine, SimulatedUserRequest } from '../conversation/dialogue.js';
/** The word the simulated user writes to end the conversation (SPEC.md). */
export declare const STOP_WORD = "###STOP###";
/**
 * The first message the model sees, in the assistant's seat. It asks for the opening line, and stays
 * at the head of every later request, so the roles always alternate (some chat templates insist).
 */
export declare const KICK_OFF = "(The chat has just opened and the assistant is waiting. Write your first message.)";
/**
 * The request for the user's next line. Roles are reversed: the model answers as `assistant`, so the
 * agent's lines are `user` messages and the simulated user's own earlier lines are `assistant` ones.
 * Models asked to play the user with the roles left as they are drift back into helping.
 */
export declare function simulatedUserMessages(instructions: string, dialogue: readonly DialogueLine[]): ChatCompletionMessageParam[];
export type { SimulatedUserRequest } from '../conversation/dialogue.js';
/**
 * The instructions and dialogue behind a request built by `simulatedUserMessages`, or undefined when
 * the messages are not one. For fake model servers that play the user by rule.
 */
export declare function readSimulatedUserRequest(messages: readonly unknown[]): SimulatedUserRequest | undefined;
/** A chat message with plain-text content, as sent over the wire. */
export declare function textMessage(message: unknown): {
    role: string;
    content: string;
} | undefined;
