import type { FailOn } from '../../verdict/gate.ts'
import type { Calibration } from '../../records/calibration/calibration.ts'
import type { Repository } from '../../adapters/github/event.ts'
import type { Octokit } from '../../adapters/github/octokit.ts'
import type { Mask } from '../../base/shared/secrets.ts'

/** Where a publication's words go: the job log (notices and warnings annotate it) or a terminal. */
export interface PublishLog {
  info(message: string): void
  notice(message: string): void
  warning(message: string): void
}

export const COMMENT_POLICIES = ['on-change', 'always', 'never'] as const
export type CommentPolicy = (typeof COMMENT_POLICIES)[number]

/** How a run is judged and where it is posted: the action's inputs, or `convy-ci publish`'s flags. */
export interface PublishSettings {
  failOn: FailOn
  /** An inconclusive comparison fails too (it is a neutral check otherwise). */
  failOnInconclusive: boolean
  gateAcrossJudgeChange: boolean
  /** Fail on answers significantly slower by this many percent or more (verdict/decide-gate.ts); null or absent: off. */
  failOnSlower?: number | null
  /** Fail on agent tokens or dollars per attempt significantly higher by this many percent or more; null or absent: off. */
  failOnCostlier?: number | null
  /** A change of answer time smaller than this per answer is never told (verdict/speed.ts); absent: 0.05 s. */
  minSpeedChangeSeconds?: number
  comment: CommentPolicy
  check: boolean
  /** The job the comment and check belong to (github/artifact-names.ts publishingJob); null for the default. */
  job: string | null
  /**
   * The project's judge calibration (convy.yml `judge:`, the action's judge-* inputs): cited in the
   * comment when it is of the run's judge, flagged stale when not, and with `minKappa` a condition of
   * a passing gate (verdict/judge-calibration.ts). Absent: nothing is said.
   */
  judge?: { minKappa: number | null; calibration: Calibration | null }
  /**
   * How the pull request's gate-deciding settings differ from the base branch's (gate-rules.ts): said
   * first in the comment and the check; `unmet` (fewer attempts, another judge) keeps the gate from passing.
   */
  rules?: { differences: readonly string[]; unmet: readonly string[] }
}

/**
 * What publishing needs from the outside, small enough that the action and `convy-ci publish` both
 * fill it: the REST client (null when there is no token: nothing is posted then), the repository,
 * the clock and the log.
 */
export interface PublishDeps {
  octokit: Octokit | null
  repository: Repository
  /** https://github.com, or a GitHub Enterprise server: links to workflow runs start here. */
  serverUrl: string
  settings: PublishSettings
  log: PublishLog
  now: () => Date
  /**
   * The project's secrets: the comment and the check are masked with it before GitHub's limits cut
   * them (a cut through a secret would leave a piece no mask finds), and the REST client masks what
   * it sends again. Absent: nothing is masked here.
   */
  mask?: Mask
}
