import type { ScenarioTools } from '../agents/agent.ts'
import type { CheckResult, ServedTools, Turn } from '../../records/journal/records.ts'
import { scenarioFingerprint, type Scenario } from '../../records/scenario/scenario.ts'
import { loadSchemaChecker } from '../../records/scenario/tool-input.ts'
import { decideEndState } from './end-state.ts'
import { attemptSeed } from './faults.ts'
import type { ListenOptions } from './listen.ts'
import { ToolTable } from './tool-table.ts'

/**
 * A scenario's tools for one attempt (docs/tools.md): opened before the conversation, closed after
 * it whatever happened. The agent finds them at `tools_url` in its context (MCP, Streamable HTTP) or,
 * a module agent, in-process as `tools` beside its context; either way each call is answered from
 * the scenario's table and recorded in the attempt.
 */
export interface AttemptTools {
  /** The address the agent is given as `tools_url`. */
  url: string
  /** The same tools, in-process. */
  tools: ScenarioTools
  /** What the attempt records: the address, the seed, the calls and the state at the end. */
  record(): ServedTools
  /** The scenario's `end_state:` checks, decided on the world as it is now. */
  endState(): CheckResult[]
  close(): Promise<void>
}

export interface OpenTools {
  /** The attempt's context as it is when a call comes (set-up may add to it). */
  context: () => Readonly<Record<string, unknown>>
  /** Seconds since the attempt started. */
  at: () => number
  /** The turns recorded so far, to tell which answer a call came during. */
  turns: readonly Turn[]
  listen?: ListenOptions
}

export async function openAttemptTools(scenario: Scenario, attemptNumber: number, options: OpenTools): Promise<AttemptTools | null> {
  if (scenario.tools === undefined) return null
  // A resumed run reads its scenarios from run.json, not through load-scenarios.ts.
  await loadSchemaChecker()
  const table = new ToolTable({
    tools: scenario.tools,
    context: options.context,
    seed: attemptSeed(scenarioFingerprint(scenario), attemptNumber),
    at: options.at,
    turn: () => answerUnderWay(options.turns),
  })
  // Loaded only for a scenario with tools: a run without any never loads the MCP server.
  const { serveOverMcp } = await import('./mcp-server.ts')
  const endpoint = await serveOverMcp(table, options.listen)
  return {
    url: endpoint.url,
    tools: { list: () => table.list(), call: (name, args) => table.call(name, args) },
    record: () => table.record(endpoint.url),
    endState: () => decideEndState(scenario.endState ?? [], table.calls, table.state),
    close: async () => {
      table.close()
      await endpoint.close()
    },
  }
}

/** The answer being given (1-based, among the agent's turns), or undefined between answers. */
export function answerUnderWay(turns: readonly Turn[]): number | undefined {
  if (turns.at(-1)?.role !== 'user') return undefined
  return turns.filter((turn) => turn.role === 'user').length
}
