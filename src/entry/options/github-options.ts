import { DEFAULT_ARTIFACT_NAME } from '../../adapters/github/artifact-names.ts'
import { COMMENT_POLICIES } from '../../app/publish/deps.ts'
import { HISTORY_MAX_RUNS } from '../../records/tally/trend.ts'
import { baselineChoice, commitSha, flag, name, oneOf, pullRequest, text, whole, workflow } from './kinds.ts'
import { option } from './option.ts'

/** GitHub: the repository, the pull request, the baseline and where the result is posted (`baseline`, `publish`, the action). */
export const GITHUB_OPTIONS = {
  repo: option({
    kind: text('owner/name'),
    cli: { flag: 'repo', commands: ['baseline', 'publish'], help: 'the repository', defaultText: 'GITHUB_REPOSITORY' },
  }),
  pr: option({
    kind: pullRequest(),
    cli: { flag: 'pr', commands: ['publish'], help: 'the pull request', defaultText: 'from the event file GITHUB_EVENT_PATH' },
  }),
  sha: option({
    kind: commitSha(),
    cli: { flag: 'sha', commands: ['publish'], help: "the pull request's head commit (not a merge commit), where the check goes", defaultText: "the event file's" },
  }),
  baseline: option({
    kind: baselineChoice(),
    action: {
      input: 'baseline',
      description: "auto: on pull requests, the newest successful run of this workflow on baseline-branch that uploaded the agent's run. none: no comparison. A workflow run id: that run's artifact.",
      docs: "`auto`: on pull requests, the newest successful run of this workflow on `baseline-branch` with the agent's artifact (expired artifacts and pull request runs are passed over); `none`; or a workflow run id, whose artifact is the baseline (on any event)",
      default: { kind: 'auto' },
    },
  }),
  branch: option({
    kind: text('name'),
    cli: { flag: 'branch', commands: ['baseline', 'publish'], help: "the baseline's branch", defaultText: "the repository's default branch" },
    action: {
      input: 'baseline-branch',
      description: "The branch baselines come from. Default the repository's default branch.",
      docs: 'e.g. `${{ github.base_ref }}` to compare with the pull request\'s own base',
      defaultText: 'the default branch',
    },
  }),
  workflow: option({
    kind: workflow(),
    cli: { flag: 'workflow', commands: ['baseline', 'publish'], help: "only this workflow's runs (its file, e.g. convy.yml, or its id)", defaultText: 'any workflow' },
  }),
  artifactName: option({
    kind: name('name', 'use letters, digits, ".", "_" and "-"; it starts the names of the artifacts'),
    cli: { flag: 'artifact-name', commands: ['baseline', 'publish'], help: "the action's artifact-name: the baseline's artifact; a name other than the default also names the comment and the check", default: DEFAULT_ARTIFACT_NAME },
    action: {
      input: 'artifact-name',
      description:
        'Start of the artifact names: <name>-<agent> (the run folder), <name>-<agent>-report.html (the report), <name>-<agent>-shard-I-of-N. Change it when one workflow runs the same agent in several jobs: a name other than convy also names the job\'s own comment and check run (convy / <agent> (<name>)).',
      docs: 'the start of the artifact names; change it when one workflow runs the same agent in several jobs (say, per Node version): it then also names the job\'s comment and check',
      default: DEFAULT_ARTIFACT_NAME,
    },
  }),
  against: option({
    kind: text('run'),
    cli: { flag: 'against', commands: ['baseline'], help: "judge the candidates' health against this local run, as the action does against the pull request's run", defaultText: 'their own share of errors only' },
  }),
  history: option({
    kind: whole(0, HISTORY_MAX_RUNS, 'runs'),
    cli: { flag: 'history', metavar: 'N', commands: ['publish'], help: "the branch's last N runs' summaries for the comment's trend lines (0: none; docs/trend.md)", default: 10 },
    action: {
      input: 'history',
      description: `The default branch's last successful runs of this workflow whose summaries (a small artifact each run uploads) show each scenario's trend: a sparkline in the reports, and in the comment a line for the scenarios that moved and "flaky on main" where the branch itself varied. On a push to baseline-branch, also what attempts-by-history plans each scenario's attempts from. 0: off. At most ${HISTORY_MAX_RUNS}.`,
      docs: "the default branch's last successful runs whose summaries (`<artifact-name>-<agent>+summary`, a few KB that every run uploads) draw each scenario's trend: a sparkline in the reports, and in the comment a line beside each Worse or Better scenario, saying *flaky on main* where the branch itself varied ([trend.md](trend.md)); on a push to `baseline-branch`, also what `attempts-by-history` plans from; `0`: off. Never fails the step",
      default: 10,
    },
  }),
  historyToFetch: option({
    kind: whole(0, HISTORY_MAX_RUNS, 'runs'),
    cli: { flag: 'history', metavar: 'N', commands: ['baseline'], help: "also the branch's last N runs' summaries, into results/<agent>/history.json: report and compare then draw each scenario's trend (docs/trend.md), and run --attempts-by-history plans from it", default: 0 },
  }),
  comment: option({
    kind: oneOf(COMMENT_POLICIES),
    cli: { flag: 'comment', metavar: 'when', commands: ['publish'], help: '{default} (default): post on Worse, Better or cannot-tell, update an existing comment always; always; never', default: 'on-change' },
    action: {
      input: 'comment',
      description:
        'The pull request comment, one per agent, updated in place. on-change: posted when the verdict is Worse or Better, or the comparison cannot tell (inconclusive, k too low, judge changed), and kept up to date once it exists. always: every time. never: no comment.',
      docs: '`on-change`: a comment is posted when the verdict is Worse or Better, or when the first line says the comparison cannot tell (inconclusive, k too low, judge changed), and once there it is kept up to date (so a fixed regression does not leave a stale Worse behind); `always`; `never`',
      default: 'on-change',
    },
  }),
  check: option({
    kind: flag(),
    cli: { flag: 'check', negation: 'no-check', commands: ['publish'], help: 'no check run', default: true },
    action: {
      input: 'check',
      description: 'Create a check run "convy / <agent>" on the pull request\'s head commit; its conclusion follows fail-on.',
      docs: 'the check run `convy / <agent>`: `failure` when the step fails, `neutral` when inconclusive or for a Worse verdict that `fail-on` lets pass, `success` otherwise',
      default: true,
    },
  }),
  retentionDays: option({
    kind: whole(1, 90),
    action: { input: 'retention-days', description: "Days the artifacts are kept (at most the repository's setting). Default the repository's setting.", docs: 'how long the artifacts are kept', defaultText: "the repository's" },
  }),
  githubToken: option({
    kind: text('token'),
    action: {
      input: 'github-token',
      description: 'The token for comments, checks and baselines; needs actions read (without it, baselines come from the Actions cache), pull-requests write, checks write.',
      docs: 'needs `actions: read`, `pull-requests: write`, `checks: write`',
      yamlDefault: '${{ github.token }}',
    },
  }),
}
