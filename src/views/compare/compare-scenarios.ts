import type { ComparedScenario, Comparison, MovedClaim, NotComparedScenario, ScenarioSide } from '../../verdict/comparison.ts'
import { undecidedCount, undecidedCounts } from '../page/verdict-words.ts'
import { scenarioNotes } from './compare-wording.ts'
import { renderAttempt } from '../run/attempt-view.ts'
import { count, fraction, pEquals, points } from '../page/format.ts'
import { anchorFor, html, type SafeHtml } from '../page/html.ts'
import type { ClaimHolding, RunTally, ScenarioTally } from '../../records/tally/run-tally.ts'
import { heldText, instructions } from '../run/scenario-view.ts'
import { passKBlock } from './pass-k-view.ts'
import { toolChangesOf, toolUseBlock } from './tool-use-wording.ts'
import type { Trend } from '../../records/tally/trend.ts'
import { trendCell, trendSentence } from '../page/trend-view.ts'

/**
 * The compare page's scenarios, grouped Worse, Better, Same and Not compared. Each opens to what the
 * user was told, each claim's record in both runs, and both runs' attempts side by side, attempt 1
 * next to attempt 1, so a reader sees what changed in the conversation itself.
 */

export type CompareGroup = 'worse' | 'better' | 'same' | 'not_compared'

export const GROUP_LABEL: Record<CompareGroup, string> = { worse: 'Worse', better: 'Better', same: 'Same', not_compared: 'Not compared' }

const REASON: Record<NotComparedScenario['reason'], string> = {
  'only-before': 'played only by the before run',
  'only-after': 'played only by the after run',
  edited: 'edited between the runs',
  'no-verdict': 'none decided in one of the runs',
  retired: 'retired on purpose by the after run',
}

export interface CompareSides {
  before: RunTally
  after: RunTally
  /** The default branch's trend before the after run, drawn beside each scenario when given. */
  trend?: Trend | null
}

function claimsSideBySide(before: ScenarioTally | undefined, after: ScenarioTally | undefined): SafeHtml {
  const claims = new Map<string, { before?: ClaimHolding; after?: ClaimHolding }>()
  const put = (key: string, side: 'before' | 'after', h: ClaimHolding) => claims.set(key, { ...claims.get(key), [side]: h })
  const sides = [['after', after], ['before', before]] as const
  for (const [side, t] of sides) for (const [claim, h] of t?.claims ?? []) put(claim, side, h)
  for (const [side, t] of sides) for (const c of t?.checks.values() ?? []) put(`${c.kind} ${c.value}`, side, c)
  if (claims.size === 0) return html``
  const cell = (h: ClaimHolding | undefined) => (h ? heldText(h) : 'not in this run')
  return html`<h3>Claims and checks</h3><table class="runs held2"><thead><tr><th>Claim or check</th><th>Before</th><th>After</th></tr></thead><tbody>${[...claims].map(
    ([claim, h]) => html`<tr><td class="text">${claim}</td><td>${cell(h.before)}</td><td>${cell(h.after)}</td></tr>`,
  )}</tbody></table>`
}

/** "4/5 (+1 agent error, +1 user error)": a run's attempts of a scenario, each kind that is not a pass or fail named. */
function sideHead(t: ScenarioTally): string {
  if (t.attempts.length === 0) return 'not played'
  const apart = undecidedCounts(t)
  return `${fraction(t.passed, t.passed + t.failed)}${apart.length ? ` (+${apart.join(', +')})` : ''}`
}

function attemptsSideBySide(anchor: string, before: ScenarioTally | undefined, after: ScenarioTally | undefined): SafeHtml {
  const left = before?.attempts ?? []
  const right = after?.attempts ?? []
  const numbers = [...new Set([...left, ...right].map((a) => a.attempt))].sort((a, b) => a - b)
  const head = (label: string, t: ScenarioTally | undefined) =>
    html`<div class="side-h">${label} · ${t ? sideHead(t) : 'not played'}</div>`
  return html`<h3>Attempts, side by side</h3><div class="pair">${head('Before', before)}${head('After', after)}</div>${numbers.map((n) => {
    const l = left.find((a) => a.attempt === n)
    const r = right.find((a) => a.attempt === n)
    // Both sides open together, so the two dialogues line up for reading across.
    const open = [l, r].some((a) => a && a.verdict !== 'passed')
    return html`<div class="pair"><div>${l ? renderAttempt(l, `${anchor}-before`, open) : html`<p class="note">No attempt ${n}.</p>`}</div><div>${
      r ? renderAttempt(r, `${anchor}-after`, open) : html`<p class="note">No attempt ${n}.</p>`
    }</div></div>`
  })}`
}

function detail(id: string, anchor: string, sides: CompareSides, edited: boolean, extra: SafeHtml = html``): SafeHtml {
  const before = sides.before.scenarios.get(id)
  const after = sides.after.scenarios.get(id)
  const told = edited
    ? html`<p class="note">This scenario was edited between the runs, so its results are not compared. Before:</p>${instructions(before?.scenario ?? null)}<p class="note">After:</p>${instructions(
        after?.scenario ?? null,
      )}`
    : instructions(after?.scenario ?? before?.scenario ?? null)
  return html`<div class="detail">${told}${trendSentence(sides.trend, id)}${claimsSideBySide(before, after)}${extra}${attemptsSideBySide(anchor, before, after)}</div>`
}

function row(group: CompareGroup, id: string, cells: SafeHtml, body: SafeHtml): SafeHtml {
  const anchor = anchorFor('scenario', id)
  return html`<details class="scn" id="${anchor}" data-anchor data-row data-status="${group}" data-search="${id.toLowerCase()}"><summary class="row crow${withMoved(group) ? ' wm' : ''}"><span class="badge g-${group}">${GROUP_LABEL[group]}</span>${cells}</summary>${body}</details>`
}

/** Worse and Better rows say what moved with them, as the pull request's comment does. */
const withMoved = (group: CompareGroup) => group === 'worse' || group === 'better'

/** “The agent asked for the order number” 5/5 → 0/5, a line per claim or check that moved. */
function movedCell(s: ComparedScenario): SafeHtml {
  const line = (m: MovedClaim) => html`<div>${m.kind === 'claim' ? `“${m.text}”` : `check ${m.text}`} ${fraction(m.before.held, m.before.decided)} → ${fraction(m.after.held, m.after.decided)}</div>`
  return html`<div class="moved">${s.moved.length ? s.moved.map(line) : html`<span class="muted">–</span>`}</div>`
}

/** A side in a row: "4/4", how many of its fails were agent errors, and a marked count of attempts without a verdict. */
function sideCell(side: ScenarioSide | null): SafeHtml {
  if (side === null || side.attempts === 0) return html`<div class="num muted">not played</div>`
  // Agent errors are among the fails; only attempts without a verdict from convy-ci's models are apart.
  const without = side.noVerdicts
  return html`<div class="num">${side.judged === 0 ? 'none decided' : `${side.passed}/${side.judged}`}${
    side.agentErrors ? html` <span class="muted" title="counted as failed">${undecidedCount('agent_error', side.agentErrors)}</span>` : ''
  }${without ? html` <span class="muted" title="left out: convy-ci's models failed">+${undecidedCount('no_verdict', without)}</span>` : ''}</div>`
}

function comparedRow(s: ComparedScenario, sides: CompareSides, c: Comparison): SafeHtml {
  const tools = toolChangesOf(c, s.id)
  const notes = [...scenarioNotes(s), ...(tools.length ? [`tool use changed: ${tools.length === 1 ? 'one change' : `${tools.length} changes`}, below`] : [])]
  const p = s.group === 'better' || (s.group === 'same' && s.change > 0) ? s.pBetter : s.pWorse
  const now = s.after && s.after.attempts > 0 ? { passed: s.after.passed, judged: s.after.judged } : null
  const cells = html`<div class="name">${s.id}${trendCell(sides.trend, s.id, now)}${notes.length ? html`<div class="note">⚠ ${notes.join('; ')}</div>` : ''}</div>${sideCell(s.before)}${sideCell(s.after)}<div class="num">${points(s.change)}</div><div class="num opt">${s.change === 0 ? '–' : pEquals(p)}${s.group !== 'same' && !s.alone ? html`<div class="note">with the others, not alone</div>` : ''}</div>${withMoved(s.group) ? movedCell(s) : ''}`
  return row(s.group, s.id, cells, detail(s.id, anchorFor('scenario', s.id), sides, false, html`${passKBlock(c, s)}${toolUseBlock(tools)}`))
}

function notComparedRow(s: NotComparedScenario, sides: CompareSides): SafeHtml {
  const now = s.after && s.after.attempts > 0 ? { passed: s.after.passed, judged: s.after.judged } : null
  const cells = html`<div class="name">${s.id}${trendCell(sides.trend, s.id, now)}<div class="note">${REASON[s.reason]}</div></div>${sideCell(s.before)}${sideCell(s.after)}<div class="num">–</div><div class="num opt">–</div>`
  return row('not_compared', s.id, cells, detail(s.id, anchorFor('scenario', s.id), sides, s.reason === 'edited'))
}

const listHead = (key: CompareGroup) =>
  html`<div class="row crow list-head${withMoved(key) ? ' wm' : ''}" aria-hidden="true"><div>Group</div><div>Scenario</div><div class="num">Before</div><div class="num">After</div><div class="num">Change</div><div class="num opt">p (one-sided)</div>${withMoved(key) ? html`<div>What moved</div>` : ''}</div>`

/** A group, a row at a time: a large comparison's page is written row by row, never held whole. */
function* group<S>(key: CompareGroup, scenarios: readonly S[], toRow: (s: S) => SafeHtml, blurb: string): Generator<SafeHtml> {
  if (scenarios.length === 0) return
  yield html`<section data-group="${key}"><h2>${GROUP_LABEL[key]} <span class="muted">${count(scenarios.length)}</span></h2><p class="note">${blurb}</p><div class="list">${listHead(key)}`
  for (const s of scenarios) yield toRow(s)
  yield html`</div></section>`
}

export function* scenarioGroupParts(c: Comparison, sides: CompareSides): Generator<SafeHtml> {
  const { worse, better, same, notCompared } = c.scenarios
  const compared = (s: ComparedScenario) => comparedRow(s, sides, c)
  yield* group(
    'worse',
    worse,
    compared,
    'Passed less often after the change, beyond what chance explains (one-sided Fisher test, Tarone-corrected), or dropped while the pass rate as a whole fell beyond noise.',
  )
  yield* group('better', better, compared, 'Passed more often after the change, beyond what chance explains.')
  yield* group('same', same, compared, 'Any difference is within noise: it is what chance alone gives often enough.')
  yield* group('not_compared', notCompared, (s) => notComparedRow(s, sides), 'Left out of the statistics, with the reason.')
}

export function groupCounts(c: Comparison): Record<CompareGroup, number> {
  return { worse: c.scenarios.worse.length, better: c.scenarios.better.length, same: c.scenarios.same.length, not_compared: c.scenarios.notCompared.length }
}
