/**
 * The agent interface. Built-in agents (echo, JSON over HTTP, OpenAI-compatible) implement it, and so
 * does a user's module that exports `agent`. These types are part of convy-ci's public API.
 */
export interface Usage {
    input?: number;
    output?: number;
}
export interface Answer {
    text: string;
    usage?: Usage;
}
/** One message of the dialogue so far, in the shape most chat APIs take. */
export interface Message {
    role: 'user' | 'assistant';
    content: string;
}
export interface ConversationContext {
    /** Stays the same for one conversation; different for every attempt. */
    session: string;
    /** Aborted when the step times out or the run is interrupted. Pass it to fetch. */
    signal: AbortSignal;
}
export interface AnswerContext extends ConversationContext {
    /** The dialogue before this message, for agents that keep no state. */
    history: readonly Message[];
}
export interface Conversation {
    answer(message: string, context: AnswerContext): Promise<Answer> | Answer;
    close?(context: ConversationContext): Promise<void> | void;
}
export interface Agent {
    /** Shown in run.json and reports; optional. */
    version?: string;
    conversation(context: ConversationContext): Promise<Conversation> | Conversation;
}
