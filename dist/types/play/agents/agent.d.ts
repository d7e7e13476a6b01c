/**
 * The agent interface. Built-in agents (echo, JSON over HTTP, OpenAI-compatible) implement it, and so
 * does a user's module that exports `agent`. These types are part of convy-ci's public API.
 */
export interface Usage {
    input?: number;
    output?: number;
}
/** A tool the agent called on its way to an answer, as far as its protocol shows it. */
export interface ToolCall {
    name: string;
    /** As the agent sent them: parsed JSON when they came as JSON text, else as given. */
    arguments?: unknown;
    /**
     * What the tool gave back, where the protocol carries it (the AI SDK's tool outputs, A2A function
     * responses, LangGraph tool messages): parsed JSON when it came as JSON text. The judge sees it.
     */
    result?: unknown;
}
interface AnswerDetails {
    usage?: Usage;
    /** The tools the agent called for this answer, in order; recorded, shown to the judge, and checked by `tool_called`. */
    toolCalls?: ToolCall[];
}
/**
 * What an agent answers: `text`, or `messages` when it answers with several messages in one turn (a
 * greeting, then the answer). Each message is recorded and shown on its own; the simulated user, the
 * judge and the checks read them as one text, joined by blank lines. With `messages`, `text` may be
 * left out: convy-ci sets it to that joined text.
 */
export type Answer = AnswerDetails & ({
    text: string;
    messages?: readonly string[];
} | {
    text?: string;
    messages: readonly string[];
});
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
    /**
     * The attempt's context: convy.yml's agent `context`, the scenario's over it, then what set-up
     * answered (docs/scenarios.md, "Setting up the world"). Empty when none is configured.
     */
    context: Readonly<Record<string, unknown>>;
    /**
     * The scenario's tools, in-process (docs/tools.md): the same answers, faults and record as over MCP
     * at `context.tools_url`. Absent when the scenario has none.
     */
    tools?: ScenarioTools;
}
/** A tool as an MCP server lists it. */
export interface ToolInfo {
    name: string;
    description?: string;
    inputSchema: Record<string, unknown>;
}
/** What a call gives back, as MCP's `tools/call` does: text content, a map as `structuredContent`, `isError` for a tool error. */
export interface ToolResult {
    content: {
        type: 'text';
        text: string;
    }[];
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
}
/** The scenario's tools for a module agent that calls them in-process. */
export interface ScenarioTools {
    list(): ToolInfo[];
    /** Answers as the MCP server does, recorded the same; throws for a tool the scenario does not define, naming its tools. */
    call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
}
export interface AnswerContext extends ConversationContext {
    /** The dialogue before this message, for agents that keep no state. */
    history: readonly Message[];
    /**
     * A streaming agent calls this when the first piece of its answer arrives; the run records the time
     * to first token. Calls after the first are ignored.
     */
    firstToken?: () => void;
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
export {};
