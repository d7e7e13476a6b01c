import type { RunState } from '../journal/records.ts'
import type { Interval } from '../stats/intervals.ts'
import type { TaroneCorrection } from '../stats/tarone.ts'

/**
 * The result of comparing two runs, as plain JSON: what `compare --json` prints, what the action
 * reads, and what the markdown and the HTML page render. Every rate is a fraction (0.9, not 90).
 */
export const COMPARISON_FORMAT = 1

/** worse and better are claims the statistics support; everything else is within noise. */
export type Direction = 'worse' | 'better' | 'within-noise'

/** How a tile's change is coloured: red, green, grey with ~, or not judged at all. */
export type Tone = Direction | 'neutral'

export interface RunInfo {
  id: string
  agent: string
  agentVersion: string | null
  userModel: string | null
  judgeModel: string | null
  startedAt: string
  finishedAt: string | null
  state: RunState
  commit: string | null
  branch: string | null
  pullRequest: number | null
  /** Attempts per scenario the run was asked for. */
  k: number
  scenarios: number
  attempts: number
}

export interface Tile {
  before: number | null
  after: number | null
  /** after − before; null when either is missing. */
  change: number | null
  tone: Tone
  /** "x of y": the totals the values are counted out of, where that means something. */
  of: { before: number; after: number } | null
}

export interface Tiles {
  /** The mean of the scenarios' pass rates, so a scenario with many verdicts weighs no more than one with few. */
  passRate: Tile
  /** Passed attempts, out of attempts with a verdict. */
  passed: Tile
  /** Scenarios that passed every attempt with a verdict, out of scenarios with a verdict. */
  stableScenarios: Tile
  attempts: Tile
  /**
   * The agent's own time per answer; failed answers are not answers and are left out. Toned slower
   * (worse) or faster (better) by answer-times.ts: a Mann–Whitney test and a 10% change of the median.
   */
  meanAnswerSeconds: Tile
  slowestAnswerSeconds: Tile
  /** Time to first token per answer, over the answers that streamed; toned as the answer time. */
  meanFirstTokenSeconds: Tile
  /** The agent's tokens per attempt, over the attempts where it reported them. */
  tokensInPerAttempt: Tile
  tokensOutPerAttempt: Tile
  /** Out of all attempts. */
  agentErrors: Tile
  noVerdicts: Tile
  /** Dollars for convy-ci's own models over the whole run, where convy.yml has prices. */
  costUsd: Tile
}

export interface ScenarioSide {
  passed: number
  /** Attempts with a verdict: passed or failed. */
  judged: number
  attempts: number
  agentErrors: number
  noVerdicts: number
  rate: number | null
  /** Wilson 95% interval of the rate. */
  interval: Interval
  meanAnswerSeconds: number | null
}

export interface ComparedScenario {
  id: string
  before: ScenarioSide
  after: ScenarioSide
  /** after.rate − before.rate. */
  change: number
  /** One-sided Fisher p that after passes less often than before. */
  pWorse: number
  /** One-sided Fisher p that after passes more often. */
  pBetter: number
  /** Worse or better only after Tarone's correction; same otherwise. */
  group: 'worse' | 'better' | 'same'
  /** A raw one-sided p ≤ 0.05 that did not survive the correction. */
  possible: 'regression' | 'improvement' | null
  /** Set when attempts without a verdict (agent errors or no verdict) grew significantly: one-sided Fisher p. */
  moreWithoutVerdict: { p: number } | null
}

export type NotComparedReason = 'only-before' | 'only-after' | 'edited' | 'no-verdict'

export interface NotComparedScenario {
  id: string
  reason: NotComparedReason
  /** Null when the run did not play the scenario. */
  before: ScenarioSide | null
  after: ScenarioSide | null
}

export interface OverallChange {
  /** How many scenarios both runs played, unchanged, with verdicts: the only ones the statistics use. */
  scenarios: number
  before: { rate: number | null; passed: number; judged: number }
  after: { rate: number | null; passed: number; judged: number }
  /** Change of the scenario-averaged pass rate. */
  change: number | null
  /** Newcombe's 95% interval for the change. */
  interval: Interval | null
  /** Exact stratified test, one-sided each way, and two-sided. */
  pWorse: number
  pBetter: number
  pTwoSided: number
  /** The stratified test alone, at one-sided 0.025. */
  direction: Direction
}

export interface Sensitivity {
  /** k: the smaller of the two runs' attempts per scenario. */
  attemptsPerScenario: number
  /** Verdicts per run in the compared scenarios (the smaller side). */
  attemptsPerRun: number
  baselineRate: number | null
  /** The overall drop this comparison detects with 80% power at two-sided 0.05; null when none would register. */
  detectableDrop: number | null
  /** A scenario going k/k → j/k or lower can be flagged (with no other scenario testable); null when none can. */
  flaggableScenarioDrop: number | null
}

export type WarningKind =
  | 'different-agent'
  | 'different-user-model'
  | 'different-judge-model'
  | 'different-model-settings'
  | 'different-scenarios'
  | 'edited-scenarios'
  | 'old-baseline'
  | 'unfinished-run'
  | 'smoke-run'
  | 'more-agent-errors'
  | 'unknown-scenarios'
  | 'nothing-compared'

/** `message` is plain text and may quote names from the runs: escape it wherever it is shown. */
export interface ComparisonWarning {
  kind: WarningKind
  message: string
}

export interface Comparison {
  format: typeof COMPARISON_FORMAT
  before: RunInfo
  after: RunInfo
  /** Worse if the pass rate or any scenario got worse; better likewise; else within noise. */
  verdict: Direction
  overall: OverallChange
  tiles: Tiles
  scenarios: {
    worse: ComparedScenario[]
    better: ComparedScenario[]
    same: ComparedScenario[]
    notCompared: NotComparedScenario[]
  }
  /** Tarone's correction per direction, at family-wise α. */
  corrections: { worse: TaroneCorrection; better: TaroneCorrection }
  sensitivity: Sensitivity
  warnings: ComparisonWarning[]
}
