import { relative } from 'node:path'
import { comparisonMarkdown } from '../../../views/markdown/compare-markdown.ts'
import { overallSentence, sensitivitySentence, standingTitle, verdictReason } from '../../../views/compare/compare-wording.ts'
import { gateFails } from '../../../verdict/gate.ts'
import { decideGate } from '../../../verdict/decide-gate.ts'
import { percent, shownPoints } from '../../../views/page/format.ts'
import type { Comparison } from '../../../verdict/comparison.ts'
import { ExitCode, InputError } from '../../../base/shared/errors.ts'
import { readCommandArgs } from '../args.ts'
import type { CliContext } from '../context.ts'
import { compareTwoRuns } from '../../../app/pipeline/compare.ts'
import { calibrationNear } from '../../../app/pipeline/judge-calibration.ts'
import { judgeGate } from '../../../verdict/judge-calibration.ts'
import { calibrationMarkdown } from '../../../views/markdown/publish-markdown.ts'
import { calibrationSentence } from '../../../views/page/judge-calibration.ts'
import { forTerminal } from '../../../base/shared/invisible.ts'
import { baseConfigRules } from '../base-config.ts'

/**
 * Compares two runs: writes the compare page and prints a summary, the pull request's markdown
 * (--markdown) or the comparison as data (--json). With --fail-on it gates like the action does:
 * exit 1 when it fails, 3 when evidence is missing (unless --no-fail-on-inconclusive), 0 when it passes
 * or there is too little to tell (neutral).
 */
export async function compareCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, given, positionals } = readCommandArgs('compare', argv)
  if (positionals.length !== 2) throw new InputError('convy-ci compare: give two runs, before and after (ids, their 4-hex parts, or run folders)')
  if (values.markdown && values.json) throw new InputError('convy-ci compare: --markdown and --json print different things; choose one')
  const { failOn } = values
  const slowerPercent = values.failOnSlower ?? null
  const costlierPercent = values.failOnCostlier ?? null

  // --base-config (issue 38): the base branch's convy.yml; its judge judges both runs, its min_kappa if stricter.
  const base = await baseConfigOf(ctx, values.config, values.baseConfig)
  const judge = await calibrationNear(ctx.cwd, { config: values.config }, base.minKappa)
  // The one decision the action and publish make too (verdict/decide-gate.ts): the baseline's health,
  // the judge's calibration and the speed and cost limits counted. Made once, as the page is written;
  // the page shows it when the command was asked to gate.
  const settings = { failOn, acrossJudgeChange: values.gateAcrossJudgeChange, slowerPercent, costlierPercent }
  const asked = [
    `fail-on: ${failOn}`,
    slowerPercent === null ? '' : `fail-on-slower ${slowerPercent}%`,
    costlierPercent === null ? '' : `fail-on-costlier ${costlierPercent}%`,
  ].filter(Boolean)
  const { comparison, page, after, trend, decision } = await compareTwoRuns(ctx, {
    before: positionals[0]!,
    after: positionals[1]!,
    maxAgeDays: values.maxAgeDays,
    minSpeedChangeSeconds: values.minSpeedChange / 1000,
    rejudgeBaseline: values.rejudgeBaseline ?? false,
    config: values.config,
    results: values.results,
    calibration: judge.calibration,
    baseJudge: base.judge,
    gate: {
      decide: (c, { health, after: run, unmet }) => decideGate({ comparison: c }, { ...settings, health, judge: judgeGate(judge.minKappa, judge.calibration, run), unmetRules: [...base.unmet, ...unmet] }),
      // The page shows the gate when the command was asked to gate; the default fail-on alone is not.
      onPage: asked.length === 1 && !given.has('failOn') ? null : asked.join(', '),
    },
  })
  const judged = judgeGate(judge.minKappa, judge.calibration, after)

  // Comparing a run with itself is always "within noise": most likely a typo for the other run.
  if (comparison.before.id === comparison.after.id) {
    ctx.stderr.write(`warning: ${positionals[0]} and ${positionals[1]} are the same run, ${comparison.after.id}: it is within noise of itself by construction; give the baseline first, then the run to judge\n`)
  }
  if (values.json) ctx.stdout.write(`${JSON.stringify(comparison, null, 2)}\n`)
  else if (values.markdown) ctx.stdout.write(`${comparisonMarkdown(comparison, { reportUrl: values.reportUrl ?? null, trend })}${calibrationMarkdown(judged.status)}\n`)
  else ctx.stdout.write(plainSummary(comparison, relative(ctx.cwd, page) || page, calibrationSentence(judged.status)))
  const { result } = decision
  // The gate's word goes to stderr, so --json and --markdown stay clean for a pipe.
  const outcome = result.inconclusive ? `inconclusive (${result.inconclusive.replace(/-/g, ' ')})` : result.outcome
  if (failOn !== 'never' || result.outcome !== 'pass') ctx.stderr.write(`gate (${asked.join(', ')}): ${outcome}: ${result.reason}\n`)
  if (!gateFails(result, values.failOnInconclusive)) return ExitCode.Ok
  return result.outcome === 'fail' ? ExitCode.Failed : ExitCode.Inconclusive
}

/** `--base-config FILE`: the base's judge and min_kappa, and what it could not settle; nothing without it. */
async function baseConfigOf(ctx: CliContext, config: string | undefined, baseConfig: string | undefined) {
  if (baseConfig === undefined) return { judge: null, minKappa: {}, unmet: [] as string[] }
  const rules = await baseConfigRules(ctx, config ?? 'convy.yml', baseConfig)
  for (const difference of rules.differences) ctx.stderr.write(`--base-config: ${difference}\n`)
  return { judge: rules.baseJudge ? { judge: rules.baseJudge, base: rules.base } : null, minKappa: { minKappa: rules.rules.minKappa ?? undefined }, unmet: rules.unmet }
}

function plainSummary(c: Comparison, pagePath: string, calibration: string | null): string {
  const mark = c.verdict === 'worse' && !c.judgeChange ? '✗' : c.verdict === 'better' ? '✓' : '~'
  const rate = (r: number | null) => (r === null ? '–' : percent(r))
  const lines = [
    `${mark} ${standingTitle(c)}: ${c.before.id} → ${c.after.id}`,
    `  pass rate ${rate(c.tiles.passRate.before)} → ${rate(c.tiles.passRate.after)}${c.tiles.passRate.before === null || c.tiles.passRate.after === null ? '' : ` (${shownPoints(c.tiles.passRate.before, c.tiles.passRate.after)})`}`,
    `  ${verdictReason(c)}`,
    `  ${overallSentence(c)}`,
  ]
  const sensitivity = sensitivitySentence(c)
  if (sensitivity) lines.push(`  ${sensitivity}`)
  for (const [title, list] of [
    ['worse', c.scenarios.worse],
    ['better', c.scenarios.better],
  ] as const) {
    if (list.length) lines.push(`  ${title}: ${list.map((s) => `${s.id} ${s.before.passed}/${s.before.judged} → ${s.after.passed}/${s.after.judged}`).join(', ')}`)
  }
  if (c.scenarios.notCompared.length) lines.push(`  not compared: ${c.scenarios.notCompared.map((s) => `${s.id} (${s.reason})`).join(', ')}`)
  for (const warning of c.warnings) lines.push(`  warning: ${warning.message}`)
  if (calibration) lines.push(`  ${forTerminal(calibration)}`)
  lines.push(`  ${pagePath}`, '')
  return lines.join('\n')
}
