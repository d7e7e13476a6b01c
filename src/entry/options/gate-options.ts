import { DEFAULT_FAIL_ON, FAIL_ON } from '../../verdict/gate.ts'
import { MIN_SPEED_CHANGE_SECONDS } from '../../verdict/speed.ts'
import { BASELINE_MAX_AGE_DAYS } from '../../verdict/compare-runs.ts'
import { above0, flag, kappa, milliseconds, oneOf, percentage, text, whole } from './kinds.ts'
import { option } from './option.ts'

/** The gate and the comparison it decides on: `compare`, `publish` and the action's pull requests. */
export const GATE_OPTIONS = {
  failOn: option({
    kind: oneOf(FAIL_ON),
    cli: {
      flag: 'fail-on',
      metavar: 'when',
      commands: ['compare', 'publish'],
      help: "{default} (default): exit 1 when the gate fails; failing: when any attempt of the run did not pass; never. An agent error is a failed attempt; what the run lacks (no verdict, user_error relabels, removed or edited scenarios) is also counted against it, and where that changes the outcome the gate is inconclusive, evidence missing: exit 3. Too little to tell (k too low) is neutral: exit 0. The gate's word goes to stderr",
      default: DEFAULT_FAIL_ON,
    },
    action: {
      input: 'fail-on',
      description:
        'When the step fails, decided by the statistics alone. worse: the verdict is Worse than the baseline (an agent error counts as a failed attempt). failing: any attempt did not pass. never: only for bad input. Below never, a run that did not finish also fails. What this run lacks (attempts without a verdict, user_error relabels, removed or edited scenarios) is also counted against it; where that changes the outcome, or the judge changed without a rejudge, the gate is inconclusive with evidence missing, which fails (see fail-on-inconclusive). Too little to tell (k too low for one scenario to register) is inconclusive too, and always a neutral check.',
      docs: 'when the step fails, by the statistics alone: `worse` — the verdict is Worse (an agent error counts as a failed attempt; what the run lacks — attempts without a verdict, user_error relabels, removed or edited scenarios — is counted against it, and where that changes the outcome the gate is *inconclusive, evidence missing*, see `fail-on-inconclusive`); `failing` — any attempt did not pass; `never` — only on bad input. Below `never`, a run that did not finish (interrupted, or stopped at its budget) fails too',
      default: DEFAULT_FAIL_ON,
    },
  }),
  failOnInconclusive: option({
    kind: flag(),
    cli: { flag: 'fail-on-inconclusive', negation: 'no-fail-on-inconclusive', commands: ['compare', 'publish'], help: 'exit 0 when evidence is missing (by default it fails, exit 3)', default: true },
    action: {
      input: 'fail-on-inconclusive',
      description: "Fail the step when the gate is inconclusive with evidence missing (the default); 'false' makes it a neutral check. Too little to tell never fails.",
      docs: 'fail when the comparison is *inconclusive, evidence missing* (what the run lacks would change the outcome, an unhealthy baseline, an unchecked judge, a base-branch rule the run does not meet); `false` makes it a neutral check. *Too little to tell* (k too low for one scenario to register) is always neutral',
      default: true,
    },
  }),
  gateAcrossJudgeChange: option({
    kind: flag(),
    cli: { flag: 'gate-across-judge-change', commands: ['compare', 'publish'], help: 'gate across a change of judge that no rejudge settled (by default it is evidence missing)', default: false },
    action: {
      input: 'gate-across-judge-change',
      description:
        "Gate as if nothing changed when the judge (model, prompt, temperature, samples, review) or the simulated user's prompt changed between the baseline and this run and no rejudge of the baseline settled it. By default such a comparison says so first and is inconclusive with evidence missing, which fails the step.",
      docs: "let a Worse verdict fail the step even when the judge (model, prompt, temperature, samples) or the simulated user's prompt changed between the runs; by default such a comparison says so first and is inconclusive",
      default: false,
    },
  }),
  failOnSlower: option({
    kind: percentage(),
    cli: { flag: 'fail-on-slower', commands: ['compare', 'publish'], help: 'exit 1 too when answers got slower beyond noise (overall or in a scenario) by at least pct percent and by at least --min-speed-change per answer', defaultText: 'off' },
    action: {
      input: 'fail-on-slower',
      description:
        "Off by default. A percentage: fail the step when the agent's answers are slower than the baseline's beyond noise (a permutation test on each attempt's mean answer time, stratified by scenario; each scenario also alone, corrected across scenarios) by at least this much, and by at least min-speed-change per answer, overall or in one scenario. 50 fails on 1.5 × or more. It gates under any fail-on, and makes the verdict output worse.",
      docs: "off by default. A percentage: also fail when the agent's answers got slower than the baseline's beyond noise by at least this much and by at least `min-speed-change` per answer, overall or in one scenario (`50`: 1.5 × or more). Each attempt counts once, by its mean answer time; a permutation test stratified by scenario (docs/statistics.md, \"Speed and cost\"). It gates under any `fail-on`, and the `verdict` output is then `worse`. A wrong value stops the step naming the input",
    },
  }),
  failOnCostlier: option({
    kind: percentage(),
    cli: { flag: 'fail-on-costlier', commands: ['compare', 'publish'], help: 'exit 1 too when agent tokens or dollars per attempt rose beyond noise (overall or in a scenario) by at least pct percent', defaultText: 'off' },
    action: {
      input: 'fail-on-costlier',
      description:
        "Off by default. A percentage: fail the step when the agent's tokens per attempt, or its dollars per attempt (its tokens at its price in convy.yml; convy-ci's own models are reported apart), rose beyond noise by at least this much, overall or in one scenario, tested as fail-on-slower is. It gates under any fail-on, and makes the verdict output worse.",
      docs: "off by default. The same for the agent's tokens per attempt and the agent's dollars per attempt (its tokens at its `price` in convy.yml; convy-ci's own models — the simulated user, the judge, the review — are reported apart and never gated): also fail when either rose beyond noise by at least this percentage, overall or in one scenario",
    },
  }),
  minSpeedChange: option({
    kind: milliseconds(),
    cli: { flag: 'min-speed-change', commands: ['compare', 'publish'], help: 'answer times that moved less than this many milliseconds per answer are never told slower or faster, nor fail --fail-on-slower: less is the machine and the network, not the agent', default: MIN_SPEED_CHANGE_SECONDS * 1000 },
    action: {
      input: 'min-speed-change',
      description: 'Milliseconds per answer: an answer time that moved less than this is never told slower or faster and never fails fail-on-slower; less is the machine and the network, not the agent.',
      docs: 'milliseconds per answer: an answer time that moved less than this is never told slower or faster, and never fails `fail-on-slower` (the runner\'s machine, the network and the gateway move answer times by tens of milliseconds between runs; [Statistics](statistics.md))',
      default: MIN_SPEED_CHANGE_SECONDS * 1000,
    },
  }),
  rejudgeBaseline: option({
    kind: flag(),
    cli: {
      flag: 'rejudge-baseline',
      commands: ['compare'],
      help: "when the judge changed (model, prompt, samples, review), first judge <before>'s recorded dialogues again with <after>'s judge, into a new run that is compared instead: like with like (needs convy.yml's models)",
    },
  }),
  rejudge: option({
    kind: whole(1, 15),
    action: {
      input: 'rejudge',
      description:
        'Judge samples for a second look at what decides the verdict: when the comparison is Worse or Better, the attempts of the scenarios that decide it are judged this many times again (e.g. 3) on their recorded dialogues, and a scenario whose change comes from the judge disagreeing with itself is labelled judge-unstable instead of counting. Costs that many judge calls per attempt of those scenarios only. Not applied when a pull request’s judge change was settled with the base branch’s judge (the comment says so). Default: no second look.',
      docs: 'judge samples for a second look at what decides the verdict: when the comparison is Worse or Better, the attempts of the scenarios that decide it are judged this many times again (e.g. `3`) on their recorded dialogues, and a scenario whose change comes from the judge disagreeing with itself is labelled *judge-unstable* instead of counting (the gate is then inconclusive). Costs that many judge calls per attempt of those scenarios only; the uploaded run keeps its first judgements',
      defaultText: 'no second look',
    },
  }),
  judgeMinKappa: option({
    kind: kappa(),
    config: 'judge.min_kappa',
    action: {
      input: 'judge-min-kappa',
      description:
        "Gate on the judge's calibration (docs/judge-check.md): a comparison whose judge has no calibration.json of its own (same model, prompt, temperature and samples) with Cohen's κ at least this, against labels a person made, rests on an unchecked judge and does not pass the gate: it is inconclusive, evidence missing. A failing gate still fails. Default: convy.yml's judge.min_kappa, else no such gate.",
      docs: "gate on the judge's calibration ([judge-check.md](judge-check.md)): a comparison whose judge has no calibration.json of its own with Cohen's κ at least this does not pass the gate: *inconclusive, evidence missing*. A failing gate still fails",
      defaultText: "convy.yml's `judge.min_kappa`, else none",
    },
  }),
  judgeLabels: option({
    kind: text('file'),
    config: 'judge.labels',
    action: {
      input: 'judge-labels',
      description: "The labels file (labels.jsonl, relative to working-directory) whose calibration.json, beside it, is cited and gated on. Default: convy.yml's judge.labels, else labels.jsonl beside convy.yml.",
      docs: 'the labels file (relative to `working-directory`) whose calibration.json, beside it, is cited and gated on',
      defaultText: "convy.yml's `judge.labels`, else labels.jsonl beside convy.yml",
    },
  }),
  maxAgeDays: option({
    kind: above0('days', 'n'),
    cli: { flag: 'max-age-days', commands: ['compare'], help: 'warn when <before> is older than this many days', default: BASELINE_MAX_AGE_DAYS },
  }),
  markdown: option({
    kind: flag(),
    cli: { flag: 'markdown', commands: ['compare'], help: 'print the text of the pull request comment instead' },
  }),
  json: option({
    kind: flag(),
    cli: { flag: 'json', commands: ['compare', 'judge-check'], help: 'print the figures as data instead' },
  }),
  reportUrl: option({
    kind: text('url'),
    cli: { flag: 'report-url', commands: ['compare', 'publish'], help: 'link the markdown, the comment and the check to this report' },
  }),
  baseConfig: option({
    kind: text('file'),
    cli: {
      flag: 'base-config',
      commands: ['publish', 'compare'],
      help: "the base branch's convy.yml: its judge (model and endpoint) judges each run it did not judge (publish: this run's dialogues, and the baseline's if its judge moved; compare: into a new run compared instead), its judge.min_kappa if stricter, as the action's base-branch rules; where its judge cannot be asked, evidence is missing (exit 3)",
    },
  }),
}
