import * as z from '../../base/shared/zod.ts'
import { fingerprint } from '../../base/shared/fingerprint.ts'
import { ToolsShape } from './tools.ts'
import { WorldShape } from './world.ts'

/**
 * A scenario as convy-ci plays it: the YAML file after validation and defaults. This exact shape is
 * copied into run.json, so an old run keeps its meaning after the file is edited.
 */
/**
 * `fatal` (on the checks an answer can break) ends the attempt, failed, at the first answer that
 * breaks it: the simulated user and the judge are not asked again about a conversation already lost.
 */
const fatal = z.optional(z.literal(true))
export const CheckSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('contains'), value: z.nonEmptyText }),
  z.object({ kind: z.literal('not_contains'), value: z.nonEmptyText, fatal }),
  z.object({ kind: z.literal('regex'), value: z.nonEmptyText }),
  /**
   * The value is a tool's name: some answer (or no answer) came with a call to it. `args`: a call
   * to it had at least these arguments, with equal values (tool-checks.ts).
   */
  z.object({ kind: z.literal('tool_called'), value: z.nonEmptyText, args: z.optional(z.record(z.string(), z.unknown())) }),
  z.object({ kind: z.literal('tool_not_called'), value: z.nonEmptyText, fatal }),
  /** These tools were called in this order over the attempt; other calls may come between. */
  z.object({ kind: z.literal('tool_order'), value: z.array(z.nonEmptyText).check(z.minLength(2)) }),
  /** At most this many tool calls over the attempt, all answers together. */
  z.object({ kind: z.literal('max_tool_calls'), value: z.int().check(z.nonnegative()) }),
])
export type Check = z.infer<typeof CheckSchema>
export type CheckKind = Check['kind']
export const CHECK_KINDS: readonly CheckKind[] = ['contains', 'not_contains', 'regex', 'tool_called', 'tool_not_called', 'tool_order', 'max_tool_calls']
/** The checks one answer can break, so the only ones that may be `fatal`. */
export const FATAL_KINDS: readonly CheckKind[] = ['not_contains', 'tool_not_called']

/**
 * A check's value as one line of text: what its result records (`value` in attempts.jsonl), and the
 * key its record is counted under, so two checks of one tool with different `args` stay apart.
 */
export function checkText(check: Check): string {
  switch (check.kind) {
    case 'tool_called':
      return check.args === undefined ? check.value : `${check.value} ${JSON.stringify(check.args)}`
    case 'tool_order':
      return check.value.join(' → ')
    case 'max_tool_calls':
      return String(check.value)
    default:
      return check.value
  }
}

export const ScenarioSchema = z.object({
  id: z.nonEmptyText,
  /** Path of the YAML file relative to the project, for people; not part of the scenario's identity. */
  file: z.string(),
  /** What the scenario is about, for people reading the report; not part of its identity either. */
  description: z.optional(z.string()),
  maxTurns: z.int().check(z.positive()),
  /** Instructions for the simulated user; absent when the scenario is scripted only. */
  user: z.optional(z.string()),
  /** The user's lines in order, used instead of the simulated user (and by --smoke). */
  script: z.optional(z.array(z.string())),
  /** Plain-language claims the judge decides; all must hold. */
  judge: z.array(z.string()),
  checks: z.array(CheckSchema),
  tags: z.array(z.string()),
  /** The world the attempts are played in (world.ts): context, set-up and tear-down, the user's settings, limits, stop_if. */
  ...WorldShape,
  /** Tools served over MCP and the end state checked after the last turn (tools.ts). */
  ...ToolsShape,
})
export type Scenario = z.infer<typeof ScenarioSchema>

export const DEFAULT_MAX_TURNS = 8

/**
 * Where the user's lines come from. A scenario with both `user` and `script` is played by the
 * simulated user, and its script serves --smoke runs, which call no model.
 */
export function userSource(scenario: Scenario, smoke: boolean): 'simulated' | 'script' | 'greeting' {
  if (smoke) return scenario.script ? 'script' : 'greeting'
  return scenario.user !== undefined ? 'simulated' : 'script'
}

export function needsUserModel(scenario: Scenario, smoke: boolean): boolean {
  return userSource(scenario, smoke) === 'simulated'
}

export function needsJudgeModel(scenario: Scenario, smoke: boolean): boolean {
  return !smoke && scenario.judge.length > 0
}

/**
 * What makes a scenario the same scenario: everything in its copy except where its file lives, its
 * description and its tags (none of them changes how it is played or judged). Runs compare scenarios
 * by it, and the model cache forgets a scenario's answers when it changes.
 */
export function scenarioFingerprint(scenario: Scenario): string {
  const { file: _file, description: _description, tags: _tags, ...played } = scenario
  return fingerprint(played)
}

/**
 * What a scenario asks, whatever it is called: the fingerprint without the id. A scenario renamed in
 * a pull request keeps it, so a comparison matches it to its baseline by content (verdict/).
 */
export function scenarioContentFingerprint(scenario: Scenario): string {
  const { file: _file, description: _description, tags: _tags, id: _id, ...played } = scenario
  return fingerprint(played)
}

/** A scenario file kept with `retired: <reason>`: removed on purpose, visibly in the pull request's diff. */
export interface RetiredScenario {
  id: string
  reason: string
}
