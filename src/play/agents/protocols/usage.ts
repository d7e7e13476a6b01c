import type { Usage } from '../agent.ts'
import { lookupPath } from '../dotted-path.ts'

/**
 * Token counts read from an agent's answer. They are bookkeeping, not the agent's job: a count that
 * is missing stays unknown rather than failing a turn the agent answered well.
 */

/** The counts at two dotted paths (convy.yml `tokens: [input, output]`). */
export function usageAt(root: unknown, [inputPath, outputPath]: readonly [string, string]): Usage | undefined {
  return usageOf(countAt(root, inputPath), countAt(root, outputPath))
}

// The spellings of the libraries agents are built with: the AI SDK, OpenAI, LangChain, Anthropic.
const SPELLINGS = [
  ['inputTokens', 'outputTokens'],
  ['input_tokens', 'output_tokens'],
  ['prompt_tokens', 'completion_tokens'],
  ['promptTokens', 'completionTokens'],
] as const
const CONTAINERS = ['usage', 'totalUsage', 'usage_metadata', 'token_usage']

/** Counts where agents usually put them, for protocols that leave usage to each agent (AI SDK metadata, A2A). */
export function findUsage(value: unknown): Usage | undefined {
  if (value === null || typeof value !== 'object') return undefined
  for (const candidate of [value, ...CONTAINERS.map((key) => (value as Record<string, unknown>)[key])]) {
    for (const [input, output] of SPELLINGS) {
      const usage = usageOf(countAt(candidate, input), countAt(candidate, output))
      if (usage) return usage
    }
  }
  return undefined
}

function usageOf(input: number | undefined, output: number | undefined): Usage | undefined {
  return input === undefined && output === undefined ? undefined : { input, output }
}

function countAt(root: unknown, path: string): number | undefined {
  if (root === null || typeof root !== 'object') return undefined
  const found = lookupPath(root, path)
  return found.found && typeof found.value === 'number' && Number.isFinite(found.value) && found.value >= 0 ? found.value : undefined
}
