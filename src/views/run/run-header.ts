import type { RunManifest } from '../../records/journal/records.ts'
import { shortId } from '../../records/journal/run-folder.ts'
import { count, duration, plural, seconds, when } from '../page/format.ts'
import { html, trusted, type SafeHtml } from '../page/html.ts'
import { pageTop } from '../page/page.ts'
import { expectedAttempts, stopWords } from '../../records/journal/adaptive-record.ts'
import { planWords } from '../../records/tally/attempts-by-history.ts'

/**
 * The top of a run's report: what was played, with what, when, and whether it finished. A run that
 * did not finish says so before any figure, since its figures cover only part of what was planned.
 */

function fact(label: string, value: SafeHtml | string): SafeHtml {
  return html`<div><dt>${label}</dt><dd>${value}</dd></div>`
}

function stateWord(m: RunManifest): SafeHtml {
  return html`<span class="state-${m.state}">${m.state === 'finished' ? 'Finished' : m.state === 'interrupted' ? 'Interrupted' : 'Running'}</span>`
}

function durationText(m: RunManifest): string {
  if (m.finishedAt === null) return m.state === 'running' ? 'still running' : 'unknown'
  return seconds(duration(m.startedAt, m.finishedAt))
}

function modelsText(m: RunManifest): string {
  const parts = [m.models.user ? `user ${m.models.user}` : '', m.models.judge ? `judge ${m.models.judge}` : ''].filter(Boolean)
  return parts.length ? parts.join(' · ') : 'none (scripted, checks only)'
}

/** Said wherever a simulated user played: whether its failures may be put on it instead of the agent. */
function reviewText(m: RunManifest): string {
  return m.settings.review
    ? `on: failed attempts reviewed by ${m.models.judge ?? 'the judge'}; those the simulated user's own mistake decided are user errors, out of the pass rate`
    : "off: every failed attempt counts against the agent, the simulated user's mistakes included"
}

/**
 * The attempts recorded: those planned (k per scenario), and apart the replays of user errors, which
 * are played beyond k — counted in, they read as "17 of 15".
 */
export interface RecordedAttempts {
  planned: number
  replays: number
}

function runFacts(m: RunManifest, recorded: RecordedAttempts): SafeHtml {
  const expected = expectedAttempts(m)
  const agent = `${m.agent.name} (${m.agent.kind}${m.agent.version ? ` ${m.agent.version}` : ''})`
  return html`<dl class="facts">${[
    fact('Agent', agent),
    fact('Run', m.id),
    fact('State', stateWord(m)),
    fact('Started', when(m.startedAt)),
    fact('Duration', durationText(m)),
    fact('Attempts', `${count(recorded.planned)} of ${count(expected)} (${attemptsPlan(m)})${recorded.replays ? `, and ${plural(recorded.replays, 'replay')} of a user error with a fresh simulated user` : ''}`),
    m.settings.adaptive && m.adaptive ? fact('Adaptive attempts', adaptiveText(m)) : trusted(''),
    m.settings.attemptsByHistory && m.adaptive ? fact('Attempts from the trend', historyText(m)) : trusted(''),
    fact('Models', modelsText(m)),
    m.models.user && !m.settings.smoke ? fact('Review of the simulated user', reviewText(m)) : trusted(''),
    fact('convy-ci', m.convyVersion),
    m.settings.shard ? fact('Shard', `${m.settings.shard.index} of ${m.settings.shard.total}`) : trusted(''),
    m.ci?.branch ? fact('Branch', m.ci.branch) : trusted(''),
    m.ci?.commit ? fact('Commit', m.ci.commit.slice(0, 12)) : trusted(''),
    m.ci?.pullRequest ? fact('Pull request', `#${m.ci.pullRequest}`) : trusted(''),
  ]}</dl>`
}

/** "3 scenarios × k 5", or for an adaptive run "3 scenarios × k 5, then up to 10 where undecided". */
function attemptsPlan(m: RunManifest): string {
  // An adaptive shard plays whole scenarios: its share of them (run --adaptive --shard).
  const share = m.settings.adaptive && m.adaptive && m.settings.shard ? `${count(Object.keys(m.adaptive.scenarios).length)} of ` : ''
  const plan = `${share}${count(m.scenarios.length)} scenarios${share ? ` (shard ${m.settings.shard!.index} of ${m.settings.shard!.total}'s share)` : ''} × k ${m.settings.k}`
  if (m.settings.attemptsByHistory) return `${count(m.scenarios.length)} scenarios, each planned from ${plural(m.settings.attemptsByHistory.runs, 'run')} of history; k ${m.settings.k} without enough`
  return m.settings.adaptive ? `${plan}, then up to ${m.settings.adaptive.maxAttempts} where the comparison with ${m.settings.adaptive.baseline} was undecided` : plan
}

/** Each scenario's planned attempts and why: "invoice: stable in 8 runs: 7; order: flaky (failed in 3 of 5 runs): 15". */
function historyText(m: RunManifest): string {
  const { rule, window } = m.settings.attemptsByHistory!
  return `${rule}: ${Object.entries(m.adaptive!.scenarios)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([id, entry]) => `${id}: ${planWords({ attempts: entry.planned, reason: entry.history?.reason ?? 'plain', runs: entry.history?.runs ?? 0 }, window)}`)
    .join('; ')}`
}

/** Each scenario's attempts and why it stopped: "invoice: undecided at 10; order: decided after 5". */
function adaptiveText(m: RunManifest): string {
  const rule = `${m.settings.adaptive!.rule}: `
  return rule + Object.entries(m.adaptive!.scenarios).sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, entry]) => `${id}: ${stopWords({ played: entry.planned, stopped: entry.stopped })}`).join('; ')
}

function runBanners(m: RunManifest, { planned: recorded }: RecordedAttempts, skippedLines: number): SafeHtml {
  const expected = expectedAttempts(m)
  const banners: SafeHtml[] = []
  if (m.state === 'interrupted') {
    banners.push(
      html`<div class="banner bad" role="alert"><strong>Interrupted.</strong> The run stopped after ${count(recorded)} of ${count(
        expected,
      )} attempts; every figure below covers only those. Play the rest with <code>convy-ci resume ${shortId(m.id)}</code>.</div>`,
    )
  } else if (m.state === 'running') {
    banners.push(html`<div class="banner" role="status"><strong>Still running.</strong> This report shows the ${count(recorded)} of ${count(expected)} attempts recorded when it was written.</div>`)
  }
  if (m.settings.smoke) banners.push(html`<div class="banner"><strong>Smoke run.</strong> The user's lines came from scripts or a fixed greeting and no model was called: this checks the plumbing, not the agent.</div>`)
  if (skippedLines > 0) banners.push(html`<div class="banner"><strong>${count(skippedLines)} unreadable line(s)</strong> in attempts.jsonl were left out (a torn last line is what a killed run leaves; resume plays it again).</div>`)
  return html`${banners}`
}

export function renderRunHeader(m: RunManifest, recorded: RecordedAttempts, skippedLines: number): SafeHtml {
  return html`${pageTop('convy-ci · run report', m.agent.name)}${runFacts(m, recorded)}${runBanners(m, recorded, skippedLines)}`
}
