/**
 * What a custom agent module gets from `import … from 'convy-ci'`. When convy-ci loads such a module,
 * this import resolves to the running convy-ci itself (see agents/module/public-api.ts), so keep it small and
 * stable. The package's entry (index.ts) adds `run()` for test files.
 */
import type { Agent } from './agent.js';
export type { Agent, Answer, AnswerContext, Conversation, ConversationContext, Message, ScenarioTools, ToolCall, ToolInfo, ToolResult, Usage } from './agent.js';
export { HttpError } from './fetch-json.js';
export { CONVY_VERSION as version } from '../../base/shared/version.js';
/** Returns its argument: `export const agent = defineAgent({ … })` type-checks the agent where it is written. */
export declare function defineAgent<T extends Agent>(agent: T): T;
export interface PostJsonOptions {
    headers?: Readonly<Record<string, string>>;
    /** Pass the context's signal, so a turn timeout or Ctrl+C stops the request. */
    signal?: AbortSignal;
    method?: 'POST' | 'PUT' | 'PATCH';
}
/**
 * Sends `body` as JSON and returns the parsed JSON answer (typed as you say, not checked). Throws an
 * `HttpError` (with `status`) on a non-2xx answer and an Error on a non-JSON one; messages name the
 * request and quote the start of the body, so a failed turn explains itself.
 */
export declare function postJson<T = unknown>(url: string, body: unknown, options?: PostJsonOptions): Promise<T>;
