import { ADAPTIVE_DEFAULTS, RUN_DEFAULTS } from '../../app/pipeline/defaults.ts'
import { REJUDGE_SAMPLES } from '../../app/pipeline/rejudge.ts'
import { CACHE_MODES } from '../../adapters/model-client/model-cache.ts'
import { above0, agents, flag, httpUrl, list, oneOf, shard, text, whole } from './kinds.ts'
import { option } from './option.ts'

/** The action's mode. */
export const MODES = ['run', 'publish', 'merge'] as const

/**
 * Attempts per scenario when the workflow does not say: the smallest k at which one scenario that
 * stops passing altogether (1.0 → 0 among 20) is caught at least 90% of the time (npm run
 * bench:verdict; docs/statistics.md). Below it, the comparison says it cannot tell. The CLI's -k
 * defaults to 1 (RUN_DEFAULTS.k): a first run on your machine costs one attempt per scenario.
 */
export const ACTION_DEFAULT_ATTEMPTS = 5

/**
 * Attempts per scenario of a baseline (a run on a push to the default branch) when the workflow does
 * not say: twice the pull requests' default. A baseline is played once and held against every pull
 * request after it, and its own errors and missing verdicts (2–12% in real runs) are what let a real
 * break escape at k = 5: at 10, a scenario that always passed has its ≥ 4 decided attempts almost
 * always (the collapse rule, verdict/decide.ts), and 10/10 → 0/5 is p = 0.0003 (issue 38, bench:gate).
 */
export const ACTION_DEFAULT_BASELINE_ATTEMPTS = 10

/**
 * What is played and how: the project, the scenarios, attempts, timeouts, cost. The action's inputs
 * come first in action.yml in this order.
 */
export const RUN_OPTIONS = {
  mode: option({
    kind: oneOf(MODES),
    action: {
      input: 'mode',
      description:
        'run: play the scenarios, upload the run, compare and publish on pull requests. merge: in a job that needs a matrix of shards, combine the shards into one run, then compare and publish. publish: in a workflow_run workflow, publish the run of a pull request from a fork (see the README).',
      docs: '`run`; `merge` (combine shards); `publish` (for forks; see below)',
      default: 'run',
    },
  }),
  agent: option({
    kind: agents(),
    action: { input: 'agent', description: 'The agent(s) of convy.yml to run, separated by spaces, commas or new lines; each gets its own run, comment and check.', docs: 'the agent(s) of convy.yml, separated by spaces, commas or new lines; each has its own run, comment and check', required: 'name at least one agent' },
  }),
  attempts: option({
    kind: whole(1, 1000),
    cli: { flag: 'k', short: 'k', commands: ['run'], help: 'attempts per scenario', default: RUN_DEFAULTS.k },
    action: {
      input: 'attempts',
      description:
        'Attempts per scenario (k) on pull requests. More attempts tell smaller changes from noise. At 5, against a baseline of baseline-attempts (10), one scenario of 20 that stops passing altogether (1.0 → 0) does not pass the gate in at least 99% of pull requests, also under the noise of real runs on both sides (2% agent errors, 5% without a verdict, 5% relabelled user_error; npm run bench:gate, docs/statistics.md); a drop to 1/5 is caught about half the time. Below 4, no single scenario can register and the comparison says it cannot tell. Unset, with adaptive (the default) against a baseline: 3 first, then more where undecided; otherwise 5.',
      docs: 'attempts per scenario (k) on pull requests: more attempts tell smaller changes from noise. At 5, against a baseline of `baseline-attempts`, one scenario of 20 that stops passing altogether does not pass the gate in at least 99% of pull requests, also under the noise of real runs (2% agent errors, 5% without a verdict, 5% relabelled user_error on both sides; [Statistics](statistics.md), "How often"); at k ≤ 3 no single scenario can register and the comparison says *cannot tell*. With `adaptive` (the default) and a baseline, the first round: 3 unless set',
      // No default in action.yml: GitHub would pass it as if set, and with adaptive an unset `attempts` starts at 3 (inputs.ts).
      defaultText: `\`${ACTION_DEFAULT_ATTEMPTS}\`; with \`adaptive\` and a baseline, \`${ADAPTIVE_DEFAULTS.k}\` first`,
    },
  }),
  baselineAttempts: option({
    kind: whole(1, 1000),
    action: {
      input: 'baseline-attempts',
      description:
        "Attempts per scenario of a run that becomes a baseline: a push (or any run outside a pull request and a merge queue) on baseline-branch, by default the repository's default branch. Never fewer than attempts. A baseline is played once and held against every pull request after it; its own agent errors and missing verdicts are what let a real break escape at 5 (about 10% under real noise). It costs the default branch's runs twice the attempts, once per push, not per pull request.",
      docs: "attempts per scenario of a run that becomes a baseline: a push (any run outside a pull request and a merge queue) on `baseline-branch`, by default the default branch; never fewer than `attempts`. The baseline's own agent errors and missing verdicts let 9.5% of real breaks escape at 5 under real noise; at 10, 0.1%. It costs the default branch's runs twice the attempts, once per push, not per pull request",
      default: ACTION_DEFAULT_BASELINE_ATTEMPTS,
    },
  }),
  scenarios: option({
    kind: list('glob'),
    cli: { flag: 'scenarios', commands: ['run', 'rejudge'], help: 'only scenarios whose id matches (repeatable, or a,b; * and ?); the others are left out', defaultText: 'all' },
    action: { input: 'scenarios', description: 'Only scenarios whose id matches one of these globs (* and ?), separated by commas or new lines. Default all.', docs: 'scenario ids to play (globs with `*` and `?`), separated by commas or new lines', default: [], defaultText: 'all' },
  }),
  tags: option({
    kind: list('tag'),
    cli: { flag: 'tags', commands: ['run'], help: 'only scenarios with one of these tags (repeatable, or a,b)', defaultText: 'all' },
    action: { input: 'tags', description: 'Only scenarios with one of these tags, separated by commas or new lines. Default all.', docs: 'scenarios with any of these tags', default: [], defaultText: 'all' },
  }),
  parallel: option({
    kind: whole(1, 1000),
    cli: { flag: 'parallel', commands: ['run'], help: 'attempts played at once', default: RUN_DEFAULTS.parallel },
    action: { input: 'parallel', description: 'Attempts played at once.', docs: 'attempts played at once', default: RUN_DEFAULTS.parallel },
  }),
  parallelAgain: option({
    kind: whole(1, 1000),
    cli: { flag: 'parallel', commands: ['replay', 'rejudge'], help: 'attempts played or judged at once', defaultText: "the run's own" },
  }),
  turnTimeout: option({
    kind: above0('seconds', 's'),
    cli: { flag: 'turn-timeout', metavar: 's', commands: ['run', 'chat'], help: 'seconds for each step of the agent: opening, a turn, closing', default: RUN_DEFAULTS.turnTimeoutSeconds },
    action: { input: 'turn-timeout', description: 'Seconds for each step of the agent (opening a conversation, a turn, closing).', docs: 'seconds for each step of the agent', default: RUN_DEFAULTS.turnTimeoutSeconds },
  }),
  turnTimeoutAgain: option({
    kind: above0('seconds', 's'),
    cli: { flag: 'turn-timeout', commands: ['replay'], help: 'seconds for each step of the agent', defaultText: "the run's own" },
  }),
  waitFor: option({
    kind: httpUrl(),
    action: { input: 'wait-for', description: "A URL polled until it answers (any HTTP status below 500) before the run starts, e.g. the agent's health check.", docs: 'a URL polled (every second) until it answers with any status below 500, before the run starts' },
  }),
  waitForTimeout: option({
    kind: above0('seconds', 's'),
    action: { input: 'wait-for-timeout', description: 'Seconds to wait for wait-for before giving up.', docs: 'seconds to wait for `wait-for`', default: 120 },
  }),
  workingDirectory: option({
    kind: text('dir'),
    action: { input: 'working-directory', description: 'Where config is read from and results/ is written, relative to the workspace.', docs: 'where `config` is read and `results/` written', default: '.' },
  }),
  smoke: option({
    kind: flag(),
    cli: { flag: 'smoke', commands: ['run'], help: "check the plumbing for free: the agent answers for real, the user's lines come from the script (or one greeting), no model is called" },
  }),
  review: option({
    kind: flag(),
    config: 'models.review',
    cli: {
      flag: 'review',
      negation: 'no-review',
      commands: ['run'],
      help: "review each failed attempt of the simulated user with the judge's model and leave those its own mistake decided out of the pass rate, as user errors (default: models.review in convy.yml, on unless set to false)",
    },
  }),
  shard: option({
    kind: shard(),
    cli: { flag: 'shard', commands: ['run'], help: 'play the i-th of n balanced slices of the attempts (matrix jobs); with --adaptive, of the scenarios, each played and decided whole' },
    action: {
      input: 'shard',
      description: 'Play only the I-th of N balanced slices of the attempts (I/N), in a matrix job; a merge job publishes the whole. With adaptive on a pull request or a merge queue\'s group, the I-th of N slices of the scenarios, each adapted whole.',
      docs: '`I/N`: play only the I-th of N slices of the attempts (with `adaptive`, of the scenarios; see below)',
    },
  }),
  cache: option({
    kind: oneOf(CACHE_MODES),
    cli: { flag: 'cache', metavar: 'mode', commands: ['run'], help: "{default} (default), read, write or readwrite: keep convy-ci's model answers in .convy/cache/, per attempt, so a repeated run calls no model", default: 'off' },
    action: {
      input: 'cache',
      description:
        "The cache of convy-ci's own model calls (simulated user and judge), kept between workflow runs in the Actions cache: per agent and branch, a new branch starting from the default branch's. readwrite: use it and add to it (each push of a pull request pays only for conversations that changed). read: use it, add nothing. write: call every model, keep the answers. off: no cache. Runs of untrusted code (forks, workflow_run, pull_request_target) only read it.",
      docs: "the cache of convy-ci's own model calls, kept between workflow runs in the Actions cache (see below): `readwrite`, `read`, `write` or `off`",
      default: 'readwrite',
    },
  }),
  budgetUsd: option({
    kind: above0('dollars', 'dollars'),
    cli: { flag: 'budget-usd', commands: ['run'], help: "stop starting attempts before convy-ci's models would cost more (needs prices in convy.yml); resume continues with --budget-usd", defaultText: 'none' },
    action: {
      input: 'budget-usd',
      description: 'Dollars a run may spend on models (prices in convy.yml). No new attempt starts once spending would pass it; the run is recorded as stopped for its budget and the step fails. Default no budget.',
      docs: "dollars the run may spend on convy-ci's models (`prices` in convy.yml); no attempt starts once spending would pass it, and the step fails saying what was played and spent",
    },
  }),
  budgetUsdAgain: option({
    kind: above0('dollars', 'dollars'),
    cli: { flag: 'budget-usd', commands: ['resume'], help: 'the budget for the whole run, what it spent before included (a run stopped for budget resumes with a larger one)', defaultText: "the run's own" },
  }),
  judgeSamples: option({
    kind: whole(1, 15),
    cli: { flag: 'judge-samples', metavar: 'm', commands: ['run'], help: "ask the judge m times per attempt: each claim keeps its votes and is decided by their majority; the report shows the judge's flip rate", default: 1 },
  }),
  // Adaptive attempts (issue 39, docs/statistics.md "Adaptive attempts"); off in the action until its bench holds there.
  adaptive: option({
    kind: flag(),
    cli: { flag: 'adaptive', commands: ['run'], help: `with --baseline: play k attempts per scenario first (default ${ADAPTIVE_DEFAULTS.k} then), and more, in rounds, only where the comparison with the baseline is still undecided` },
    action: {
      input: 'adaptive',
      description:
        "On pull requests and merge queues' groups only: play 3 attempts per scenario first (attempts, when set), then more, in rounds, up to max-attempts only for the scenarios whose comparison with the baseline is still undecided (docs/statistics.md, Adaptive attempts): about the cost of a fixed 5 attempts with the power of a fixed 10. The baseline is fetched before the run; without one, the run plays attempts as usual and says so in the log. With shard, each shard adapts its share of the scenarios against the same baseline. false: attempts every time.",
      docs: 'on pull requests and merge queues\' groups: play 3 attempts per scenario first (`attempts` when set), then more, in rounds, up to `max-attempts` only where the comparison with the baseline is still undecided ([Statistics](statistics.md), "Adaptive attempts"): about the cost of a fixed 5 with the power of a fixed 10. Without a baseline the run plays `attempts` and the log says so; with `shard`, each shard adapts its share of the scenarios (see Sharding); `false` plays `attempts` every time',
      default: true,
    },
  }),
  // Attempts from the trend (issue 39 item 2, docs/statistics.md "Attempts from the trend"); on in the action: its bench holds.
  attemptsByHistory: option({
    kind: flag(),
    cli: {
      flag: 'attempts-by-history',
      commands: ['run'],
      help: `plan each scenario's attempts from results/<agent>/history.json (convy-ci baseline --history N): a scenario stable over its last runs plays fewer (never under ${ACTION_DEFAULT_ATTEMPTS} nor over -k), a flaky one more, one without enough history -k; as the action's baseline runs do`,
    },
    action: {
      input: 'attempts-by-history',
      description:
        "On a push to baseline-branch only: plan each scenario's attempts from the branch's history (the history input's runs) instead of baseline-attempts for all: a scenario that failed no decided attempt in its last 8 runs plays 7, one that failed in 2 of its last 5 runs 1.5 × baseline-attempts (15), any other baseline-attempts; never fewer than attempts (docs/statistics.md, Attempts from the trend). Without a history, or with shard, every scenario plays baseline-attempts.",
      docs: 'on a push to `baseline-branch`: each scenario\'s attempts from the branch\'s history (`history` runs): stable in its last 8 runs 7, flaky (failed in 2 of its last 5) 1.5 × `baseline-attempts` (15), any other `baseline-attempts`; never fewer than `attempts`; without a history or with `shard`, `baseline-attempts` for all ([Statistics](statistics.md), "Attempts from the trend")',
      default: true,
    },
  }),
  adaptiveBaseline: option({
    kind: text('run'),
    cli: { flag: 'baseline', commands: ['run'], help: 'the run --adaptive compares with: its id, its 4-hex part or its folder' },
  }),
  maxAttempts: option({
    kind: whole(1, 1000),
    cli: { flag: 'max-attempts', commands: ['run'], help: 'with --adaptive: the most attempts a scenario gets', default: ADAPTIVE_DEFAULTS.maxAttempts },
    action: {
      input: 'max-attempts',
      description: 'With adaptive: the most attempts a scenario of a pull request gets. Never fewer than attempts.',
      docs: 'with `adaptive`: the most attempts a scenario of a pull request gets; never fewer than `attempts`',
      default: ADAPTIVE_DEFAULTS.maxAttempts,
    },
  }),
  replayJudge: option({
    kind: flag(),
    cli: { flag: 'judge', negation: 'no-judge', commands: ['replay'], help: 'decide the checks only and call no model at all (by default the judge decides the claims again)', default: true },
  }),
  rejudgeSamples: option({
    kind: whole(1, 15),
    cli: { flag: 'samples', metavar: 'm', commands: ['rejudge'], help: 'judgements per attempt, decided by their majority', default: REJUDGE_SAMPLES },
  }),
  recorded: option({
    kind: flag(),
    cli: { flag: 'recorded', commands: ['judge-check'], help: 'the decisions recorded in the runs (the default; no model is called)' },
  }),
  judgeModel: option({
    kind: text('model'),
    cli: { flag: 'judge', commands: ['judge-check'], help: "ask this judge model (through convy.yml's gateway) about the labelled dialogues instead: compare two judges or prompts on the same labels" },
  }),
  checkSamples: option({
    kind: whole(1, 15),
    cli: { flag: 'samples', metavar: 'm', commands: ['judge-check'], help: 'with --judge: judgements per attempt, decided by their majority', default: 1 },
  }),
  out: option({
    kind: text('file'),
    cli: { flag: 'out', commands: ['judge-check'], help: 'where calibration.json goes', defaultText: 'beside the labels' },
  }),
  scenario: option({
    kind: text('id'),
    cli: { flag: 'scenario', commands: ['chat'], help: 'play this scenario of the project; its claims and checks decide at the end' },
  }),
  save: option({
    kind: text('file'),
    cli: { flag: 'save', commands: ['chat'], help: 'when the conversation ends, save it as a scenario (never overwrites)' },
  }),
  verbose: option({
    kind: flag(),
    cli: {
      flag: 'verbose',
      commands: ['run', 'resume', 'replay'],
      help: 'the dialogue on stdout as it is played (User:, Agent: with time and tokens, tool calls with their arguments), then each check and claim with its reason; with --parallel above 1 every line starts with [scenario #attempt]; secrets masked, control characters in agent text shown escaped',
    },
  }),
}

/** The project: its convy.yml and where its runs are. Last in the help, as in most tools. */
export const PROJECT_OPTIONS = {
  config: option({
    kind: text('file'),
    cli: { flag: 'config', commands: ['run', 'resume', 'replay', 'rejudge', 'judge-check', 'report', 'compare', 'merge', 'baseline', 'publish', 'chat'], help: 'convy.yml to use; the project is its folder', defaultText: 'the nearest convy.yml, here or in a folder above' },
    action: { input: 'config', description: 'convy.yml, relative to working-directory.', docs: 'relative to `working-directory`', default: 'convy.yml' },
  }),
  results: option({
    kind: text('dir'),
    cli: { flag: 'results', commands: ['run', 'resume', 'replay', 'rejudge', 'judge-check', 'report', 'compare', 'merge', 'baseline', 'publish'], help: 'where run folders are written and found', defaultText: 'results/ beside convy.yml, or ./results' },
  }),
}
