import { count, dollars, percent, percentRange, plural, seconds } from '../page/format.ts'
import { html, type SafeHtml } from '../page/html.ts'
import type { RunFigures } from './run-figures.ts'
import { STATUS_LABEL, UNDECIDED_STATUSES } from '../page/labels.ts'
import { leftOutCounts, passRateParts, undecidedCount } from '../page/verdict-words.ts'

/** A run's headline figures as tiles: what a reader takes in before anything else. */
export interface Tile {
  label: string
  value: string
  /** Smaller words right after the value ("· 8 of 12"). */
  unit: string
  sub: string
}

function passRateTile(f: RunFigures): Tile {
  const { value, over } = passRateParts({ passed: f.passed, counted: f.counted, attempts: f.attempts, rate: f.passRate })
  return {
    label: 'Pass rate',
    value,
    unit: `· ${over}`,
    sub: [
      f.passInterval && value !== 'none' ? `95% interval ${percentRange(f.passInterval.lower, f.passInterval.upper)}` : '',
      ...leftOutCounts(f).map((words) => `${words} left out`),
    ]
      .filter(Boolean)
      .join(' · '),
  }
}

function stableTile(f: RunFigures): Tile {
  const withVerdict = f.scenarios - UNDECIDED_STATUSES.reduce((sum, s) => sum + f.statusCounts[s], 0)
  const rest = [
    f.statusCounts.flaky ? `${count(f.statusCounts.flaky)} flaky` : '',
    f.statusCounts.failing ? `${count(f.statusCounts.failing)} always failing` : '',
    ...UNDECIDED_STATUSES.map((s) => (f.statusCounts[s] ? `${count(f.statusCounts[s])} ${STATUS_LABEL[s].toLowerCase()}` : '')),
  ].filter(Boolean)
  return {
    label: 'Stable scenarios',
    value: `${count(f.statusCounts.passing)}`,
    unit: `of ${count(withVerdict)}`,
    sub: ['passed every attempt', ...rest].join(' · '),
  }
}

function answerTile(f: RunFigures): Tile {
  return {
    label: 'Answer time',
    value: seconds(f.medianAnswerSeconds),
    unit: f.medianAnswerSeconds === null ? '' : 'median per attempt',
    sub: f.slowest ? `slowest ${seconds(f.slowest.seconds)} (${f.slowest.scenario}, attempt ${f.slowest.attempt})` : 'no answer was timed',
  }
}

/** Only for agents that stream: without it the tile would say nothing about the others. */
function firstTokenTile(f: RunFigures): Tile | null {
  if (f.medianFirstTokenSeconds === null) return null
  return {
    label: 'Time to first token',
    value: seconds(f.medianFirstTokenSeconds),
    unit: 'median per attempt',
    sub: f.firstTokens === f.answers ? 'over every answer, as it streamed' : `over the ${count(f.firstTokens)} of ${plural(f.answers, 'answer')} that streamed`,
  }
}

function tokensTile(f: RunFigures): Tile {
  const t = f.tokensPerAttempt
  if (!t) return { label: 'Tokens per attempt', value: '–', unit: '', sub: 'the agent reported no tokens' }
  return {
    label: 'Tokens per attempt',
    value: `${count(t.input)} / ${count(t.output)}`,
    unit: '',
    sub: t.attempts === f.attempts ? "in / out, the agent's own" : `in / out, the agent's own, reported in ${count(t.attempts)} of ${plural(f.attempts, 'attempt')}`,
  }
}

function errorsTile(f: RunFigures): Tile {
  const total = f.agentErrors + f.noVerdicts
  return {
    label: 'Errors',
    value: count(total),
    unit: total === 0 ? '' : `of ${count(f.attempts)}`,
    sub: total === 0 ? 'no agent error, no attempt with no verdict' : `${undecidedCount('agent_error', f.agentErrors)} · ${undecidedCount('no_verdict', f.noVerdicts)} (convy-ci's models failed)`,
  }
}

/** What convy-ci's own models cost (the harness), and apart from it what the agent's tokens cost at its price. */
function costTiles(f: RunFigures): Tile[] {
  const tiles: Tile[] = []
  if (f.agentCostUsd !== null) tiles.push({ label: 'Agent cost', value: dollars(f.agentCostUsd), unit: '', sub: 'its tokens at its price in convy.yml' })
  if (f.costUsd !== null) tiles.push({ label: 'convy-ci cost', value: dollars(f.costUsd), unit: '', sub: 'simulated user, judge and review, at the prices in convy.yml: the harness, not the agent' })
  return tiles
}

export function runTiles(f: RunFigures): Tile[] {
  const firstToken = firstTokenTile(f)
  const tiles = [passRateTile(f), stableTile(f), answerTile(f), ...(firstToken ? [firstToken] : []), tokensTile(f), errorsTile(f)]
  return [...tiles, ...costTiles(f)]
}

function renderTile(tile: Tile, extra: SafeHtml | string = ''): SafeHtml {
  return html`<div class="tile"><div class="label">${tile.label}</div><div class="value">${tile.value}${tile.unit ? html` <small>${tile.unit}</small>` : ''}</div><div class="sub">${tile.sub}</div>${extra}</div>`
}

export function renderTiles(tiles: readonly Tile[]): SafeHtml {
  return html`<section class="tiles" aria-label="Summary">${tiles.map((t) => renderTile(t))}</section>`
}

function passHat(k: number): SafeHtml {
  return html`pass<sup>${k}</sup>`
}

/** pass^k for k = 1…the smallest graded count, and how the scenarios split by stability. */
export function renderReliability(f: RunFigures): SafeHtml {
  const last = f.passHatK.at(-1)
  const passHatKs =
    f.passHatK.length === 0
      ? html`<span class="muted">No scenario got a verdict.</span>`
      : f.passHatK.map((p) => html`<span class="k">${passHat(p.k)} <b>${percent(p.value)}</b></span>`)
  const explain = last && last.k > 1 ? html`<span class="muted">${passHat(last.k)}: the chance that all ${last.k} attempts of a scenario pass</span>` : ''
  return html`<h2>Reliability</h2><div class="card"><div class="reliability">${passHatKs}${explain}</div><div class="reliability"><span>Always passing <b>${count(
    f.statusCounts.passing,
  )}</b></span><span>Flaky <b>${count(f.statusCounts.flaky)}</b></span><span>Always failing <b>${count(f.statusCounts.failing)}</b></span>${UNDECIDED_STATUSES.filter(
    (s) => f.statusCounts[s] > 0,
  ).map((s) => html`<span>${STATUS_LABEL[s]} <b>${count(f.statusCounts[s])}</b></span>`)}</div></div>`
}
