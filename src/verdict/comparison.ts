import type { RunState } from '../records/journal/records.ts'
import type { VerdictCounts } from '../records/journal/verdict-counts.ts'
import type { Interval } from '../base/stats/intervals.ts'
import type { TaroneCorrection } from '../base/stats/tarone.ts'
import type { ScenarioChange, StrictComparison, UserErrorShift } from './evidence.ts'
import type { Direction, OverallChange, ScenarioDecision } from './decide.ts'
import type { ToolUse } from './tool-use.ts'
import type { Speed } from './speed.ts'
import type { Cost } from './cost.ts'

export type { CountedAgainst, MissingKind, ScenarioChange, StrictComparison, UserErrorCounts, UserErrorShift } from './evidence.ts'

/**
 * The result of comparing two runs, as plain JSON: what `compare --json` prints, what the action reads, and what the markdown and the HTML page render. Every rate is a fraction (0.9, not 90).
 * Format 2: the answer-time tiles hold medians per attempt (`medianAnswerSeconds`), not means.
 */
export const COMPARISON_FORMAT = 2

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

export interface ComparedTile {
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
  passRate: ComparedTile
  /** Passed attempts, out of the attempts the statistics count (agent errors among the fails). */
  passed: ComparedTile
  /** Scenarios that passed every attempt with a verdict, out of scenarios with a verdict. */
  stableScenarios: ComparedTile
  attempts: ComparedTile
  /**
   * The agent's answer time: the median, over the attempts of the scenarios both runs played alike,
   * of each attempt's mean time per answer (agent errors left out) — the figures `speed` tells.
   * Toned by `speed`, the test the Speed and cost section and `fail-on-slower` read (tiles.ts):
   * slower (worse) when it tells anything slower, overall or in a scenario; faster (better) when it
   * tells something faster and nothing slower; neutral when it could not tell with so few attempts.
   */
  medianAnswerSeconds: ComparedTile
  /** The slowest single answer of each whole run; no test. */
  slowestAnswerSeconds: ComparedTile
  /** The same for the time to first token (each attempt's mean over its answers that streamed), toned by `firstToken`. */
  medianFirstTokenSeconds: ComparedTile
  /** The agent's tokens per attempt, over the attempts where it reported them. */
  tokensInPerAttempt: ComparedTile
  tokensOutPerAttempt: ComparedTile
  /** Out of all attempts. */
  agentErrors: ComparedTile
  noVerdicts: ComparedTile
  /** convy-ci's own models' dollars over the run (user, judge, review): the harness's, never the agent's, never gated. */
  costUsd: ComparedTile
  /** The agent's dollars (its price), median per attempt, toned by the test fail-on-costlier gates on (cost.ts). */
  agentCostPerAttempt: ComparedTile
}

/** One run's side of a scenario; its user errors and undecided attempts are out of `judged` and `attempts`. */
export interface ScenarioSide extends Pick<VerdictCounts, 'passed' | 'agentErrors' | 'noVerdicts' | 'userErrors' | 'notDecided'> {
  /**
   * Attempts the statistics count: passed, failed, and agent errors as failed attempts (the agent
   * broke). Only attempts without a verdict from convy-ci's own models (no_verdict) are left out.
   */
  judged: number
  attempts: number
  rate: number | null
  /** Wilson 95% interval of the rate. */
  interval: Interval
  medianAnswerSeconds: number | null
  /**
   * With judge samples (run --judge-samples, rejudge): how often two judgements of one dialogue
   * disagreed, and whether the judge's noise is at least the agent's own flakiness (judge-unstable).
   * Null with one judgement per attempt.
   */
  judge: JudgeSpread | null
}

/**
 * With judge samples: Ĵ (the judge's noise: how much it disagrees with itself about one dialogue) and Â
 * (the agent's flakiness: how much its dialogues differ), docs/statistics.md, judge noise, for this run's attempts.
 */
export interface JudgeSpread {
  flipRate: number
  /** Ĵ */
  judgeNoise: number
  /** Â */
  agentFlakiness: number
  /** Ĵ ≥ Â on this side alone; the comparison decides judge-unstable on both runs' attempts pooled. */
  unstable: boolean
}

/** A claim or check whose record moved with its scenario: held 5 of 5 → 0 of 5. */
export interface MovedClaim {
  kind: 'claim' | 'check'
  /** The claim, or a check as `kind value` (`contains order number`). */
  text: string
  before: { held: number; decided: number }
  after: { held: number; decided: number }
}

/** A scenario both runs played: its decision (verdict/decide.ts) with what the pages show beside it. */
export interface ComparedScenario extends ScenarioDecision {
  id: string
  /** The baseline's id of a scenario the pull request renamed (matched by content); null otherwise. */
  renamedFrom: string | null
  before: ScenarioSide
  after: ScenarioSide
  /** after.rate − before.rate. */
  change: number
  /**
   * Set when the scenario's attempts were judged again on both sides alike (the action's `rejudge`)
   * and the move it made on the first judgements went away: the rejudge is the evidence that settles
   * it, so its judge-unstable label is a note, not missing evidence.
   */
  settledByRejudge?: boolean
  /**
   * Ĵ and Â over both runs' attempts pooled, with judge samples: judge-unstable only when the judge's
   * noise is at least the spread of the dialogues of both runs — a broken agent spreads them apart.
   */
  pooledJudge: { judgeNoise: number; agentFlakiness: number } | null
  /** Set when attempts without a verdict (convy-ci's own models failed) grew significantly: one-sided Fisher p. */
  moreWithoutVerdict: { p: number } | null
  /** The claims and checks that moved the way the scenario did, largest first (at most three). */
  moved: MovedClaim[]
}

/** only-before: gone from the pull request without a `retired:` entry (removed); retired: gone on purpose. */
export type NotComparedReason = 'only-before' | 'only-after' | 'edited' | 'no-verdict' | 'retired'

export interface NotComparedScenario {
  id: string
  reason: NotComparedReason
  /** Why it was retired (the pull request's `retired:` entry), for reason `retired`. */
  retired?: string
  /** The baseline's id, when a renamed scenario has no verdict on one side. */
  renamedFrom?: string
  /** Null when the run did not play the scenario. */
  before: ScenarioSide | null
  after: ScenarioSide | null
}

export interface Sensitivity {
  /** k: the smaller of the two runs' attempts per scenario. */
  attemptsPerScenario: number
  /** Verdicts per run in the compared scenarios (the smaller side). */
  attemptsPerRun: number
  baselineRate: number | null
  /** The overall drop this comparison detects with 80% power at the overall test's one-sided level; null when none would register. */
  detectableDrop: number | null
  /** Whether a scenario going k/k → 0/k can register at all at this k (with nothing else testable). */
  singleScenarioCanRegister: boolean
  /** The one-sided p a scenario needs here: the family's α over the testable scenarios (Tarone). */
  scenarioThreshold: number
  /** With that correction, a scenario going k/k → j/k or lower is flagged; null when none can be. */
  flaggableScenarioDrop: number | null
}

/** How many attempts lack a verdict (convy-ci's own models failed), and whether that leaves the comparison blind. */
export interface Coverage {
  noVerdicts: { before: number; after: number }
  /** Attempts of the scenarios both runs played alike. */
  attempts: { before: number; after: number }
  /** Scenarios that could register going from always passing to never with every attempt judged, but not with their verdicts. */
  blindScenarios: string[]
  /** Scenarios the baseline's verdicts could test that have no verdict at all in the pull request's run: never a pass. */
  blindAfter: string[]
  /** Why the comparison cannot see what it is meant to (plain text), or null. */
  inconclusive: string | null
}

/** The judge was not the same in both runs: no change can be attributed to the agent. */
export interface JudgeChange {
  /** What changed: "model", "prompt", "temperature", "samples", "simulated user prompt", or "review". */
  changed: string[]
  /** Plain text; may quote model names: escape it wherever it is shown. */
  message: string
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
  coverage: Coverage
  /** Set when the judge's model, prompt, temperature or samples (or the simulated user's prompt) differ between the runs. */
  judgeChange: JudgeChange | null
  /** The comparison with what the pull request's run lacks counted against it; the gate decides on both. */
  strict: StrictComparison
  userErrors: UserErrorShift
  /** Removed, retired, renamed and edited scenarios, said in the comment's first lines. */
  scenarioChanges: ScenarioChange[]
  warnings: ComparisonWarning[]
  /** What changed in the tools the agent called, per compared scenario, tested like the pass rates (tool-use.ts). */
  toolUse: ToolUse
  /** Answer times per attempt, tested by a stratified permutation test (speed.ts). */
  speed: Speed
  /** Times to first token per attempt (agents that stream), tested the same way; told, never gated. */
  firstToken: Speed
  /** The agent's tokens and the dollars per attempt, tested the same way (cost.ts). */
  cost: Cost
  adaptive?: import('./adaptive-summary.ts').AdaptiveSummary | null // run --adaptive; null or absent otherwise
}
