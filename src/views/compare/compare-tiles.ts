import type { Comparison, ComparedTile, Tone } from '../../verdict/comparison.ts'
import { count, dollars, percent, points, seconds, secondsChange, shownChange, shownRate, shownSeconds, signed, signedDollars } from '../page/format.ts'
import { html, type SafeHtml } from '../page/html.ts'
import type { Measured } from '../../verdict/attempt-measures.ts'
import { scenariosAloneNote } from './speed-wording.ts'

/**
 * The run report's tiles, before and after, with the change: red when the statistics call it worse
 * (or slower), green better (or faster), grey with ~ within noise, and uncoloured where no test
 * applies (slowest answer, tokens, cost) or the test could not tell (too few attempts). The times are
 * the Speed and cost section's medians per attempt, coloured by its test.
 * Numbers are worded as in the PR comment (format.ts), so both say the same thing.
 */

const TONE_WORD: Record<Tone, string> = { worse: 'worse', better: 'better', 'within-noise': 'within noise', neutral: '' }

const NONE = '–'

/** Times get slower and faster rather than worse and better. */
const TIME_WORD: Record<Tone, string> = { ...TONE_WORD, worse: 'slower', better: 'faster' }
const COST_WORD: Record<Tone, string> = { ...TONE_WORD, worse: 'costlier', better: 'cheaper' }

function changeChip(tile: ComparedTile, show: (change: number) => string, words: Record<Tone, string> = TONE_WORD): SafeHtml {
  if (tile.change === null) return html`<span class="chg neutral">${NONE}</span>`
  const word = words[tile.tone]
  const mark = tile.tone === 'within-noise' ? '~ ' : tile.tone === 'worse' ? '▼ ' : tile.tone === 'better' ? '▲ ' : ''
  return html`<span class="chg ${tile.tone}">${mark}${show(tile.change)}${word ? html` <small>${word}</small>` : ''}</span>`
}

function value(v: number | null, show: (v: number) => string): string {
  return v === null ? NONE : show(v)
}

function tile(label: string, before: string, after: string, chips: SafeHtml[], sub = ''): SafeHtml {
  return html`<div class="tile ctile"><div class="label">${label}</div><div class="value">${before} <span class="arrow">→</span> ${after}</div><div class="chips">${chips}</div>${
    sub ? html`<div class="sub">${sub}</div>` : ''
  }</div>`
}

/** Whether a side's pass rate (the mean over scenarios) is not its passed / counted as shown beside it. */
function weightedRate(t: Comparison['tiles'], side: 'before' | 'after'): boolean {
  const rate = t.passRate[side]
  const passed = t.passed[side]
  const counted = t.passed.of?.[side]
  return rate !== null && passed !== null && counted !== undefined && counted !== null && counted > 0 && percent(rate) !== percent(passed / counted)
}

/** What a time tile's figure is, and where its colour came from when scenarios alone moved. */
function timeSub(what: string, measured: Measured, rest = ''): string {
  const note = scenariosAloneNote(measured)
  return `${what}${rest}${note ? ` · ${note} (Speed and cost)` : ''}`
}

export function renderCompareTiles(c: Comparison): SafeHtml {
  const t = c.tiles
  const of = (x: ComparedTile, side: 'before' | 'after') => (x[side] === null || x.of === null ? NONE : `${count(x[side])} of ${count(x.of[side])}`)
  const tiles = [
    tile('Pass rate', value(t.passRate.before, percent), value(t.passRate.after, percent), [changeChip(shownChange(t.passRate, shownRate), points)], `${of(t.passed, 'before')} → ${of(t.passed, 'after')} passed${weightedRate(t, 'before') || weightedRate(t, 'after') ? ' · mean over scenarios' : ''}`),
    tile('Stable scenarios', of(t.stableScenarios, 'before'), of(t.stableScenarios, 'after'), [changeChip(t.stableScenarios, (d) => signed(d))], 'passed every attempt'),
    tile('Answer time', value(t.medianAnswerSeconds.before, seconds), value(t.medianAnswerSeconds.after, seconds), [changeChip(shownChange(t.medianAnswerSeconds, shownSeconds), secondsChange, TIME_WORD)], timeSub('median per attempt of its mean answer time', c.speed, `; slowest answer ${value(t.slowestAnswerSeconds.before, seconds)} → ${value(t.slowestAnswerSeconds.after, seconds)}`)),
    ...(t.medianFirstTokenSeconds.before !== null || t.medianFirstTokenSeconds.after !== null
      ? [tile('Time to first token', value(t.medianFirstTokenSeconds.before, seconds), value(t.medianFirstTokenSeconds.after, seconds), [changeChip(shownChange(t.medianFirstTokenSeconds, shownSeconds), secondsChange, TIME_WORD)], timeSub('median per attempt, over the answers that streamed', c.firstToken))]
      : []),
    tile(
      'Tokens per attempt',
      `${value(t.tokensInPerAttempt.before, count)} / ${value(t.tokensOutPerAttempt.before, count)}`,
      `${value(t.tokensInPerAttempt.after, count)} / ${value(t.tokensOutPerAttempt.after, count)}`,
      [changeChip(t.tokensInPerAttempt, (d) => `${signed(d)} in`), changeChip(t.tokensOutPerAttempt, (d) => `${signed(d)} out`)],
      "in / out, the agent's own",
    ),
    tile('Agent errors', of(t.agentErrors, 'before'), of(t.agentErrors, 'after'), [changeChip(t.agentErrors, (d) => signed(d))], 'attempts where the agent failed a turn'),
    tile('No verdict', of(t.noVerdicts, 'before'), of(t.noVerdicts, 'after'), [changeChip(t.noVerdicts, (d) => signed(d))], "convy-ci's models gave no verdict"),
  ]
  if (t.costUsd.before !== null || t.costUsd.after !== null) {
    tiles.push(tile('convy-ci cost', value(t.costUsd.before, dollars), value(t.costUsd.after, dollars), [changeChip(t.costUsd, signedDollars)], 'simulated user, judge and review: the harness, not the agent'))
  }
  const agentCost = t.agentCostPerAttempt
  if (agentCost.before !== null || agentCost.after !== null) {
    tiles.push(tile('Agent cost', value(agentCost.before, dollars), value(agentCost.after, dollars), [changeChip(agentCost, signedDollars, COST_WORD)], "median per attempt, its tokens at its price in convy.yml"))
  }
  return html`<section class="tiles ctiles" aria-label="Before and after">${tiles}</section>`
}
