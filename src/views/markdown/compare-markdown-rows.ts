import type { Comparison, ComparedScenario, MovedClaim, NotComparedScenario, ScenarioSide, ComparedTile, Tone } from '../../verdict/comparison.ts'
import { undecidedCount } from '../page/verdict-words.ts'
import { anchorFor } from '../page/html.ts'
import { count, dollars, fraction, percent, points, pValue, seconds, secondsChange, shownChange, shownRate, shownSeconds, signed, signedDollars } from '../page/format.ts'
import { neutralise } from './neutralise.ts'
import { scenarioNotes } from '../compare/compare-wording.ts'
import { scenariosAloneNote } from '../compare/speed-wording.ts'

/** The cells of the comparison's markdown tables. Anything from the runs goes through neutralise. */
export const SCENARIO_ID_LENGTH = 80

const TONE_MARK: Record<Tone, string> = { worse: '🟥 ', better: '🟩 ', 'within-noise': '~ ', neutral: '' }
const NONE = '–'

/**
 * The tiles that say something: the pass rate always; the rest only when they moved (stable
 * scenarios, attempts, cost), moved beyond noise (times), or are not nothing (errors). The compare
 * page and the report have every figure.
 */
export function tileRows(c: Comparison): string[][] {
  const t = c.tiles
  const rows: string[][] = [['', 'Before', 'After', 'Change']]
  const moved = (tile: ComparedTile) => tile.change !== null && tile.change !== 0
  const beyondNoise = (tile: ComparedTile) => tile.tone === 'worse' || tile.tone === 'better'
  const passRate = (side: 'before' | 'after') => {
    const rate = t.passRate[side]
    return rate === null ? NONE : `${percent(rate)} · ${count(t.passed[side]!)} of ${count(t.passed.of![side])}`
  }
  rows.push(['Pass rate', passRate('before'), passRate('after'), change(shownChange(t.passRate, shownRate), points)])
  const stable = (side: 'before' | 'after') => `${count(t.stableScenarios[side]!)} of ${count(t.stableScenarios.of![side])}`
  if (moved(t.stableScenarios)) rows.push(['Stable scenarios', stable('before'), stable('after'), change(t.stableScenarios, (d) => signed(d))])
  if (moved(t.attempts)) rows.push(['Attempts', count(t.attempts.before!), count(t.attempts.after!), change(t.attempts, (d) => signed(d))])
  // The medians per attempt the Speed and cost section tells, coloured by its test (verdict/tiles.ts).
  const time = (side: 'before' | 'after') =>
    t.medianAnswerSeconds[side] === null ? NONE : `${seconds(t.medianAnswerSeconds[side])} median per attempt · ${seconds(t.slowestAnswerSeconds[side])} slowest answer`
  if (beyondNoise(t.medianAnswerSeconds)) {
    rows.push(['Answer time', time('before'), time('after'), joined(withNote(change(shownChange(t.medianAnswerSeconds, shownSeconds), secondsChange), scenariosAloneNote(c.speed)), change(shownChange(t.slowestAnswerSeconds, shownSeconds), secondsChange))])
  }
  // Only agents that stream have a time to first token; the row would be dashes for the rest.
  const firstToken = t.medianFirstTokenSeconds
  if ((firstToken.before !== null || firstToken.after !== null) && beyondNoise(firstToken)) {
    const median = (side: 'before' | 'after') => (firstToken[side] === null ? NONE : `${seconds(firstToken[side])} median per attempt`)
    rows.push(['Time to first token', median('before'), median('after'), withNote(change(shownChange(firstToken, shownSeconds), secondsChange), scenariosAloneNote(c.firstToken))])
  }
  const tokens = (side: 'before' | 'after') =>
    t.tokensInPerAttempt[side] === null ? NONE : `${count(t.tokensInPerAttempt[side])} in · ${count(t.tokensOutPerAttempt[side]!)} out`
  // Tokens are worth a row when they moved by a tenth and at least 20 tokens: what a prompt change shows first.
  const tokensMoved = [t.tokensInPerAttempt, t.tokensOutPerAttempt].some((tile) => tile.before !== null && tile.after !== null && Math.abs(tile.after - tile.before) >= Math.max(20, 0.1 * tile.before))
  if (tokensMoved) rows.push(['Tokens per attempt', tokens('before'), tokens('after'), joined(change(t.tokensInPerAttempt, (d) => signed(d)), change(t.tokensOutPerAttempt, (d) => signed(d)))])
  const errors = (side: 'before' | 'after') => `${undecidedCount('agent_error', t.agentErrors[side] ?? 0)} · ${undecidedCount('no_verdict', t.noVerdicts[side] ?? 0)}`
  if ([t.agentErrors, t.noVerdicts].some((tile) => (tile.before ?? 0) + (tile.after ?? 0) > 0)) {
    rows.push(['Errors', errors('before'), errors('after'), `${change(t.agentErrors, (d) => signed(d))} · ${change(t.noVerdicts, (d) => signed(d))}`])
  }
  if ((t.costUsd.before !== null || t.costUsd.after !== null) && t.costUsd.change !== 0) {
    // Per attempt as well as in all: runs with different k (or a budget stop) are compared by it.
    const perAttempt = (side: 'before' | 'after') => (t.costUsd[side] === null || !t.attempts[side] ? null : t.costUsd[side] / t.attempts[side])
    const cost = (side: 'before' | 'after') => {
      const each = perAttempt(side)
      return each === null ? NONE : `${dollars(t.costUsd[side]!)} · ${dollars(each)} per attempt`
    }
    const [before, after] = [perAttempt('before'), perAttempt('after')]
    const eachChange = before === null || after === null ? NONE : `${after === before ? '' : after > before ? '+' : '−'}${dollars(Math.abs(after - before))} per attempt`
    rows.push(['convy-ci cost', cost('before'), cost('after'), joined(change(t.costUsd, signedDollars), eachChange)])
  }
  // The agent's own dollars, where convy.yml prices it: told only beyond noise, as fail-on-costlier gates on it.
  const agentCost = t.agentCostPerAttempt
  if (beyondNoise(agentCost)) {
    const each = (side: 'before' | 'after') => (agentCost[side] === null ? NONE : `${dollars(agentCost[side])} median per attempt`)
    rows.push(['Agent cost', each('before'), each('after'), change(agentCost, signedDollars)])
  }
  return rows
}

function change(tile: ComparedTile, show: (difference: number) => string): string {
  return tile.change === null ? NONE : `${TONE_MARK[tile.tone]}${show(tile.change)}`
}

function withNote(cell: string, note: string): string {
  return note ? `${cell} (${note})` : cell
}

function joined(first: string, second: string): string {
  return first === NONE && second === NONE ? NONE : `${first} · ${second}`
}

export const CHANGED_HEADER = ['Scenario', 'Before', 'After', 'Change', 'p (one-sided)', 'What moved']

/**
 * A Worse or Better row: the scenario (linked to its place in the report), its numbers, and the
 * claims or checks that moved with it. A scenario named as part of an overall change, not beyond
 * noise on its own, says so beside its p.
 */
export function changedRow(s: ComparedScenario, direction: 'worse' | 'better', reportUrl: string | null = null): string[] {
  const p = pValue(direction === 'worse' ? s.pWorse : s.pBetter)
  const name = reportUrl ? `[${scenarioId(s.id)}](${reportUrl}#${anchorFor('scenario', s.id)})` : scenarioId(s.id)
  return [name, side(s.before), side(s.after), points(s.change), s.alone ? p : `${p} (with the others, not alone)`, s.moved.map(movedText).join('<br>') || NONE]
}

const MOVED_TEXT_LENGTH = 90

/** “The agent asked for the order number” 5/5 → 0/5; a check as: check contains order number 5/5 → 0/5. */
function movedText(m: MovedClaim): string {
  const text = m.kind === 'claim' ? `“${neutralise(m.text, MOVED_TEXT_LENGTH)}”` : `check ${neutralise(m.text, MOVED_TEXT_LENGTH)}`
  return `${text} ${fraction(m.before.held, m.before.decided)} → ${fraction(m.after.held, m.after.decided)}`
}

export const SAME_HEADER = ['Scenario', 'Before', 'After', 'Change', 'p (one-sided)', 'Note']

/** The p shown is for the direction the scenario moved in; a scenario that did not move has none. */
export function sameRow(s: ComparedScenario): string[] {
  const p = s.change < 0 ? pValue(s.pWorse) : s.change > 0 ? pValue(s.pBetter) : NONE
  return [scenarioId(s.id), side(s.before), side(s.after), points(s.change), p, scenarioNotes(s).join('; ')]
}

export const NOT_COMPARED_HEADER = ['Scenario', 'Why', 'Before', 'After']

export function notComparedRow(s: NotComparedScenario): string[] {
  return [scenarioId(s.id), reason(s), s.before ? side(s.before) : NONE, s.after ? side(s.after) : NONE]
}

function reason(s: NotComparedScenario): string {
  switch (s.reason) {
    case 'only-before':
      return 'removed: only in the before run'
    case 'retired':
      return `retired: ${neutralise(s.retired ?? '', 120)}`
    case 'only-after':
      return 'only in the after run'
    case 'edited':
      return 'edited between the runs'
    case 'no-verdict': {
      const missing = [s.before?.judged === 0 && 'before', s.after?.judged === 0 && 'after'].filter(Boolean)
      return missing.length === 2 ? 'none decided in either run' : `none decided ${missing[0]}`
    }
  }
}

export function scenarioId(id: string): string {
  return neutralise(id, SCENARIO_ID_LENGTH)
}

/** "4/5", with the agent errors counted among the fails and what had no verdict: "1/3 (2 agent errors, +2 no verdict)". */
function side(s: ScenarioSide): string {
  // User errors and undecided attempts were played: an After of five user errors is not "not played".
  if (s.attempts + s.userErrors + s.notDecided === 0) return 'not played'
  const extra = [
    s.agentErrors > 0 ? undecidedCount('agent_error', s.agentErrors) : '',
    s.noVerdicts > 0 ? `+${undecidedCount('no_verdict', s.noVerdicts)}` : '',
    s.userErrors > 0 ? `+${undecidedCount('user_error', s.userErrors)}` : '',
    s.notDecided > 0 ? `+${undecidedCount('not_decided', s.notDecided)}` : '',
  ].filter(Boolean)
  return `${fraction(s.passed, s.judged)}${extra.length ? ` (${extra.join(', ')})` : ''}`
}
