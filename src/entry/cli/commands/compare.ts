import { relative } from 'node:path'
import { comparisonMarkdown } from '../../../views/markdown/compare-markdown.ts'
import { overallSentence, sensitivitySentence, standingTitle, verdictReason } from '../../../views/compare/compare-wording.ts'
import { FAIL_ON, gate, gateFails, type FailOn } from '../../../verdict/gate.ts'
import { percent, points } from '../../../views/page/format.ts'
import type { Comparison } from '../../../verdict/comparison.ts'
import { ExitCode, InputError } from '../../../base/shared/errors.ts'
import { parseCommandArgs } from '../args.ts'
import type { CliContext } from '../context.ts'
import { compareTwoRuns } from '../../../app/pipeline/compare.ts'

/**
 * Compares two runs: writes the compare page and prints a summary, the pull request's markdown
 * (--markdown) or the comparison as data (--json). With --fail-on it gates like the action does:
 * exit 1 when the gate fails; an inconclusive gate exits 0 unless --fail-on-inconclusive.
 */
export async function compareCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = parseCommandArgs('compare', argv, {
    markdown: { type: 'boolean' },
    json: { type: 'boolean' },
    'fail-on': { type: 'string' },
    'fail-on-inconclusive': { type: 'boolean' },
    'gate-across-judge-change': { type: 'boolean' },
    'report-url': { type: 'string' },
    'max-age-days': { type: 'string' },
    results: { type: 'string' },
    config: { type: 'string' },
  })
  if (positionals.length !== 2) throw new InputError('convy-ci compare: give two runs, before and after (ids, their 4-hex parts, or run folders)')
  if (values.markdown && values.json) throw new InputError('convy-ci compare: --markdown and --json print different things; choose one')
  const failOn = (values['fail-on'] ?? 'never') as FailOn
  if (!FAIL_ON.includes(failOn)) throw new InputError(`--fail-on ${failOn}: expected one of ${FAIL_ON.join(', ')}`)
  const maxAgeDays = values['max-age-days'] === undefined ? undefined : Number(values['max-age-days'])
  if (maxAgeDays !== undefined && !(maxAgeDays > 0)) throw new InputError(`--max-age-days ${values['max-age-days']}: expected a number of days above 0`)

  const { comparison, page } = await compareTwoRuns(ctx, { before: positionals[0]!, after: positionals[1]!, maxAgeDays, config: values.config, results: values.results })

  // Comparing a run with itself is always "within noise": most likely a typo for the other run.
  if (comparison.before.id === comparison.after.id) {
    ctx.stderr.write(`warning: ${positionals[0]} and ${positionals[1]} are the same run, ${comparison.after.id}: it is within noise of itself by construction; give the baseline first, then the run to judge\n`)
  }
  if (values.json) ctx.stdout.write(`${JSON.stringify(comparison, null, 2)}\n`)
  else if (values.markdown) ctx.stdout.write(`${comparisonMarkdown(comparison, { reportUrl: values['report-url'] ?? null })}\n`)
  else ctx.stdout.write(plainSummary(comparison, relative(ctx.cwd, page) || page))
  if (failOn === 'never') return ExitCode.Ok
  const result = gate(comparison, { failOn, acrossJudgeChange: values['gate-across-judge-change'] ?? false })
  // The gate's word goes to stderr, so --json and --markdown stay clean for a pipe.
  ctx.stderr.write(`gate (fail-on: ${failOn}): ${result.outcome}: ${result.reason}\n`)
  return gateFails(result, values['fail-on-inconclusive'] ?? false) ? ExitCode.Failed : ExitCode.Ok
}

function plainSummary(c: Comparison, pagePath: string): string {
  const mark = c.verdict === 'worse' && !c.judgeChange ? '✗' : c.verdict === 'better' ? '✓' : '~'
  const rate = (r: number | null) => (r === null ? '–' : percent(r))
  const lines = [
    `${mark} ${standingTitle(c)}: ${c.before.id} → ${c.after.id}`,
    `  pass rate ${rate(c.tiles.passRate.before)} → ${rate(c.tiles.passRate.after)}${c.tiles.passRate.change === null ? '' : ` (${points(c.tiles.passRate.change)})`}`,
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
  lines.push(`  ${pagePath}`, '')
  return lines.join('\n')
}
