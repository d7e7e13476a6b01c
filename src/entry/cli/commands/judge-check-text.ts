import type { Agreement, Share } from '../../../base/stats/agreement.ts'
import { capped } from '../../../base/shared/text.ts'
import { forTerminal } from '../../../base/shared/invisible.ts'
import type { JudgeCheckResult } from '../../../app/pipeline/judge-check.ts'
import { kappaText } from '../../../views/page/judge-calibration.ts'
import { count, percent, percentRange, plural } from '../../../views/page/format.ts'

/** Disagreements listed in the terminal; --json has them all. */
const DISAGREEMENTS_SHOWN = 30

function shareText(s: Share | null, what: string): string {
  if (!s) return `–  (no ${what})`
  return `${percent(s.value).padStart(5)} [${percent(s.interval.lower)}, ${percent(s.interval.upper)}]  ${count(Math.round(s.value * s.of))} of ${count(s.of)}`
}

function kappaLine(a: Agreement, short = false): string {
  if (!a.kappa) return short ? 'undefined' : 'undefined (every label and decision gave one answer)'
  // A zero standard error is the formula's, not certainty: one side gave one answer throughout, or all agree.
  if (a.kappa.standardError < 1e-9) return `${kappaText(a)} (no interval${short ? '' : ': the judge or the labels gave one answer throughout, or every label agrees'})`
  const shown = (x: number) => kappaText({ ...a, kappa: { ...a.kappa!, value: x } })
  return `${short ? kappaText(a) : kappaText(a).padStart(5)} [${shown(a.kappa.interval.lower)}, ${shown(a.kappa.interval.upper)}]`
}

/** "63% [31–86%]" for the per-scenario lines; "–" with nothing to count. */
function brief(s: Share | null): string {
  return s ? `${percent(s.value)} [${percentRange(s.interval.lower, s.interval.upper)}]` : '–'
}

/** What `convy-ci judge-check` prints: the figures, per scenario, the disagreements, where it wrote. */
export function judgeCheckText(r: JudgeCheckResult, calibrationPath: string): string {
  const j = r.judge
  const how = r.decisions === 'recorded' ? 'decisions as recorded in the runs' : `judge asked again, ${plural(j.samples, 'sample')} per attempt`
  const lines = [
    `judge "${forTerminal(j.model)}" (prompt ${j.prompt?.slice(0, 12) ?? 'unrecorded'}, ${plural(j.samples, 'sample')}): ${how}`,
    `${plural(r.overall.labels, 'label')} compared${r.replaced ? ` (${count(r.replaced)} repeated a decision; the later line counts)` : ''}${r.undecided.length ? `; ${count(r.undecided.length)} left out: the judge made no decision` : ''}`,
    '',
    `  agreement          ${shareText(r.overall.agreement, 'labels')}`,
    `  on holding claims  ${shareText(r.overall.onHolding, 'claim labelled as holding')}   judged as holding`,
    `  on failing claims  ${shareText(r.overall.onFailing, 'claim labelled as failing')}   judged as failing`,
    `  Cohen's κ          ${kappaLine(r.overall)}`,
    '',
    "  95% intervals: Wilson's score interval for the shares; for κ, κ ± 1.96·SE with Fleiss, Cohen & Everitt's",
    '  large-sample SE (as SAS and statsmodels), clipped to [−1, 1].',
  ]
  if (r.scenarios.length > 1) {
    lines.push('', 'per scenario:')
    const width = Math.min(40, Math.max(...r.scenarios.map((s) => s.id.length)))
    for (const s of r.scenarios) {
      const f = s.figures
      const parts = [`agreement ${brief(f.agreement)}`, `holding ${brief(f.onHolding)}`, `failing ${brief(f.onFailing)}`, `κ ${kappaLine(f, true)}`]
      lines.push(`  ${forTerminal(s.id).padEnd(width)}  ${plural(f.labels, 'label')}: ${parts.join(' · ')}`)
    }
  }
  lines.push('', r.disagreements.length === 0 ? 'no disagreements' : `disagreements (${count(r.disagreements.length)}):`)
  for (const d of r.disagreements.slice(0, DISAGREEMENTS_SHOWN)) {
    lines.push(`  ${forTerminal(d.scenario)} attempt ${d.attempt}, claim ${d.claim} (${forTerminal(d.run)}): you said it ${d.holds ? 'holds' : 'does not hold'}, the judge the opposite`)
    lines.push(`    claim: ${forTerminal(capped(d.claimText, 300))}`)
    lines.push(`    judge's reason: ${forTerminal(capped(d.judgeReason.replace(/\s+/g, ' '), 500))}`)
    if (d.note) lines.push(`    your note: ${forTerminal(capped(d.note, 300))}`)
  }
  if (r.disagreements.length > DISAGREEMENTS_SHOWN) lines.push(`  and ${count(r.disagreements.length - DISAGREEMENTS_SHOWN)} more (--json lists them all)`)
  for (const u of r.undecided.slice(0, 10)) lines.push(`left out: ${forTerminal(u.label.scenario)} attempt ${u.label.attempt}, claim ${u.label.claim}: ${forTerminal(capped(u.why, 300))}`)
  lines.push('', `wrote ${calibrationPath}`, '')
  return lines.join('\n')
}
