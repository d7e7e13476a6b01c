import type { Scenario } from '../../records/scenario/scenario.ts'
import { undecidedCounts } from '../page/verdict-words.ts'
import { count, percent, plural, seconds } from '../page/format.ts'
import { anchorFor, html, trusted, type SafeHtml } from '../page/html.ts'
import { statusBadge } from '../page/labels.ts'
import { passHatK } from '../../base/stats/reliability.ts'
import { renderAttempt } from './attempt-view.ts'
import { answerSecondsOf } from '../../records/tally/answer-time.ts'
import { scenarioJudgeNoise, scenarioStatus, type ClaimHolding, type ScenarioTally } from '../../records/tally/run-tally.ts'
import type { Trend } from '../../records/tally/trend.ts'
import { trendCell, trendSentence } from '../page/trend-view.ts'

/**
 * A scenario's row in the run report: a <details> whose summary is the row and whose body is the whole
 * story (what the user was told, each claim and check with how often it held, every attempt). Being a
 * <details>, it opens without JavaScript.
 */

export function scenarioAnchor(id: string): string {
  return anchorFor('scenario', id)
}

/** A thin pass-share bar; an SVG attribute, since the page's policy forbids inline styles. */
function passBar(passed: number, decided: number): SafeHtml {
  if (decided === 0) return trusted('')
  const width = ((passed / decided) * 100).toFixed(1)
  return html`<span class="bar" aria-hidden="true"><svg width="100%" height="4" preserveAspectRatio="none"><rect width="${width}%" height="4"></rect></svg></span>`
}

export function heldText(h: ClaimHolding): string {
  if (h.decided === 0) return 'never decided'
  // With judge samples: how often two judgements of one dialogue disagreed about this claim.
  const flips = h.sampled ? ` · judge flip rate ${Math.round(((h.disagreement ?? 0) / h.sampled) * 100)}%` : ''
  return `held in ${count(h.held)} of ${plural(h.decided, 'attempt')}${flips}`
}

/** With judge samples: the judge's noise against the agent's flakiness, and the judge-unstable label. */
function judgeLine(s: ScenarioTally): SafeHtml {
  const noise = scenarioJudgeNoise(s)
  if (!noise) return html``
  const share = (x: number) => `${Math.round(x * 100)}%`
  const verdict = noise.unstable
    ? html`<strong class="judge-unstable">judge-unstable</strong>: the judge disagrees with itself at least as much as the agent varies, so a change here may be the judge's, not the agent's.`
    : html`the judge is consistent here; the agent's own variation dominates.`
  return html`<p class="note">Judge: flip rate ${share(noise.flipRate)} over ${plural(noise.attempts, 'attempt')} judged several times (judge noise ${noise.judgeNoise.toFixed(2)}, agent flakiness ${noise.agentFlakiness.toFixed(2)}); ${verdict}</p>`
}

export function instructions(scenario: Scenario | null): SafeHtml {
  if (!scenario) return html`<p class="note">run.json has no copy of this scenario; only its attempts are shown.</p>`
  return html`${scenario.description === undefined ? '' : html`<p class="desc text">${scenario.description}</p>`}${scenario.user === undefined ? '' : html`<h3>What the simulated user was told</h3><div class="box text">${scenario.user}</div>`}${
    scenario.script === undefined ? '' : html`<h3>Script</h3><ol class="script box">${scenario.script.map((line) => html`<li>${line}</li>`)}</ol>`
  }`
}

function holdings(s: ScenarioTally): SafeHtml {
  const claims = [...s.claims.entries()]
  const checks = [...s.checks.values()]
  return html`${claims.length === 0 ? '' : html`<h3>Claims</h3><ul class="held">${claims.map(([claim, h]) => html`<li><div class="text">${claim}</div><div class="num">${heldText(h)}${passBar(h.held, h.decided)}</div></li>`)}</ul>`}${
    checks.length === 0
      ? ''
      : html`<h3>Checks</h3><ul class="held">${checks.map(
          (c) => html`<li><div><code>${c.kind}</code> <span class="mono text">${c.value}</span></div><div class="num">${heldText(c)}${passBar(c.held, c.decided)}</div></li>`,
        )}</ul>`
  }`
}

function reliabilityLine(s: ScenarioTally): SafeHtml {
  const n = s.passed + s.failed
  const parts: SafeHtml[] = []
  for (let k = 1; k <= n; k++) parts.push(html`<span class="k">pass<sup>${k}</sup> <b>${percent(passHatK([{ passed: s.passed, total: n }], k).value)}</b></span>`)
  const none = [
    ...undecidedCounts(s),
  ].filter(Boolean)
  return html`<h3>Reliability</h3><div class="reliability">${parts.length ? parts : html`<span class="muted">No attempt got a verdict.</span>`}${
    none.length ? html`<span class="muted">${none.join(' · ')} (left out of the rates)</span>` : ''
  }</div>`
}

function passedCell(s: ScenarioTally): SafeHtml {
  const decided = s.passed + s.failed
  // Passed of the decided attempts; the rest named by why, as everywhere: "2 of 3 · 1 agent error".
  const text = decided === 0 ? 'none decided' : `${count(s.passed)} of ${count(decided)}`
  const rest = undecidedCounts(s)
  return html`<div class="num">${text}${rest.length ? html` <span class="muted">· ${rest.join(' · ')}</span>` : ''}${passBar(s.passed, decided)}</div>`
}

function scenarioTimeCell(s: ScenarioTally): string {
  const time = answerSecondsOf(s.attempts)
  return time === null ? '–' : seconds(time)
}

function scenarioTokensCell(s: ScenarioTally): string {
  return s.tokenAttempts === 0 ? '–' : `${count(s.tokensIn / s.tokenAttempts)} / ${count(s.tokensOut / s.tokenAttempts)}`
}

/** What a glob in the filter is matched against, name by name. */
function names(s: ScenarioTally): string {
  return [s.id, s.scenario?.file ?? '', ...(s.scenario?.tags ?? [])].join(' ').toLowerCase()
}

function searchText(s: ScenarioTally): string {
  return [names(s), s.scenario?.description ?? ''].join(' ').toLowerCase()
}

/** `trend`: the default branch's last runs (records/tally/trend.ts), drawn beside the name when given. */
export function renderScenario(s: ScenarioTally, trend: Trend | null = null): SafeHtml {
  const status = scenarioStatus(s)
  const anchor = scenarioAnchor(s.id)
  const tags = s.scenario?.tags ?? []
  return html`<details class="scn" id="${anchor}" data-id="${s.id}" data-anchor data-row data-status="${status}" data-search="${searchText(s)}" data-names="${names(s)}"><summary class="row">${statusBadge(status)}<div class="name">${s.id}${
    tags.length ? html`<span class="tags">${tags.map((t) => html`<span class="tag">${t}</span>`)}</span>` : ''
  }${scenarioJudgeNoise(s)?.unstable ? html` <span class="tag judge-unstable">judge-unstable</span>` : ''}${trendCell(trend, s.id, { passed: s.passed, judged: s.passed + s.failed })}</div>${passedCell(s)}<div class="num opt">${scenarioTimeCell(s)}</div><div class="num opt">${scenarioTokensCell(s)}</div></summary><div class="detail">${instructions(s.scenario)}${holdings(
    s,
  )}${reliabilityLine(s)}${trendSentence(trend, s.id)}${judgeLine(s)}<h3>Attempts</h3>${s.attempts.map((a) => renderAttempt(a, anchor))}</div></details>`
}

export const SCENARIO_LIST_HEAD = html`<div class="row list-head" aria-hidden="true"><div>Status</div><div>Scenario</div><div class="num">Passed</div><div class="num opt">Answer time</div><div class="num opt">Tokens in / out</div></div>`
