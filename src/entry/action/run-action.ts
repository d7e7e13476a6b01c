import { fitBytes, STEP_SUMMARY_BYTES } from '../../adapters/github/limits.ts'
import type { ActionDeps } from './deps.ts'
import { mergeMode } from './modes/merge.ts'
import { publishMode } from './modes/publish.ts'
import { runMode } from './modes/run.ts'
import { actionOutputs } from './outputs.ts'
import type { AgentOutcome } from './publish-agent.ts'

export interface ActionResult {
  outputs: Record<string, string>
  /** The job summary: every agent's text, within GitHub's 1 MiB. */
  summary: string
  /** Why the step fails, one line per agent that fails it; empty when it passes. */
  failures: string[]
}

const MODES: Record<ActionDeps['inputs']['mode'], (deps: ActionDeps) => Promise<AgentOutcome[]>> = {
  run: runMode,
  publish: publishMode,
  merge: mergeMode,
}

export async function runAction(deps: ActionDeps): Promise<ActionResult> {
  const outcomes = await MODES[deps.inputs.mode](deps)
  // Masked before the cut, which could leave a piece of a secret no mask finds (main.ts masks again).
  const summary = deps.mask(outcomes.map((o) => o.markdown).join('\n\n---\n\n'))
  return {
    outputs: actionOutputs(outcomes),
    summary: fitBytes(summary, STEP_SUMMARY_BYTES, '…cut to fit the 1 MiB job summary; the reports have everything.'),
    failures: outcomes.flatMap((o) => (o.failure ? [o.failure] : [])),
  }
}
