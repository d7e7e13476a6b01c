import type { Attempt } from '../journal/records.ts'

export interface ScenarioTally {
  id: string
  attempts: number
  passed: number
  failed: number
  agentErrors: number
  noVerdict: number
  answerSeconds: number[]
}

export interface RunTally {
  scenarios: ScenarioTally[]
  attempts: number
  passed: number
  failed: number
  agentErrors: number
  noVerdict: number
}

/** Adds attempts up per scenario, one at a time, so a run of any size is summarised in flat memory. */
export class Tally {
  private readonly byId = new Map<string, ScenarioTally>()

  add(attempt: Attempt): void {
    let row = this.byId.get(attempt.scenario)
    if (!row) {
      row = { id: attempt.scenario, attempts: 0, passed: 0, failed: 0, agentErrors: 0, noVerdict: 0, answerSeconds: [] }
      this.byId.set(attempt.scenario, row)
    }
    row.attempts++
    if (attempt.verdict === 'passed') row.passed++
    else if (attempt.verdict === 'failed') row.failed++
    else if (attempt.verdict === 'agent_error') row.agentErrors++
    else row.noVerdict++
    for (const turn of attempt.turns) if (turn.role === 'agent' && turn.error === null) row.answerSeconds.push(turn.seconds)
  }

  result(): RunTally {
    const scenarios = [...this.byId.values()].sort((a, b) => a.id.localeCompare(b.id))
    const sum = (key: 'attempts' | 'passed' | 'failed' | 'agentErrors' | 'noVerdict') => scenarios.reduce((n, s) => n + s[key], 0)
    return { scenarios, attempts: sum('attempts'), passed: sum('passed'), failed: sum('failed'), agentErrors: sum('agentErrors'), noVerdict: sum('noVerdict') }
  }
}

/** The table printed when a run ends: a row per scenario, then the totals. */
export function formatSummary(agent: string, tally: RunTally): string {
  const rows = tally.scenarios.map((s) => [
    s.id,
    status(s),
    `${s.passed}/${s.passed + s.failed}`,
    s.agentErrors + s.noVerdict ? `${s.agentErrors + s.noVerdict}` : '',
    s.answerSeconds.length ? `${mean(s.answerSeconds).toFixed(2)} s` : '',
  ])
  const header = ['scenario', 'status', 'passed', 'errors', 'answer time']
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()
  const decided = tally.passed + tally.failed
  const rate = decided ? `${Math.round((100 * tally.passed) / decided)}% · ${tally.passed} of ${decided}` : 'no verdicts'
  const errors = [tally.agentErrors && `${tally.agentErrors} agent error${tally.agentErrors === 1 ? '' : 's'}`, tally.noVerdict && `${tally.noVerdict} without verdict (convy-ci's models failed)`].filter(Boolean)
  return [
    '',
    `${agent}: pass rate ${rate}${errors.length ? ` · ${errors.join(' · ')}` : ''}`,
    '',
    line(header),
    line(widths.map((w) => '─'.repeat(w))),
    ...rows.map(line),
    '',
  ].join('\n')
}

function status(s: ScenarioTally): string {
  const decided = s.passed + s.failed
  if (decided === 0) return 'no verdict'
  if (s.failed === 0) return 'passing'
  if (s.passed === 0) return 'failing'
  return 'flaky'
}

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length
}
