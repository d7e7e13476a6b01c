import type { Attempt } from '../journal/records.ts'
import { plural } from '../report/format.ts'
import type { RunProgress } from '../runner/play-run.ts'
import type { CliContext } from './context.ts'

const REDRAW_MS = 100

/**
 * On a terminal: one live line (done of total, pass rate so far, errors, elapsed). Elsewhere (CI):
 * one plain line per finished scenario, folded in a group on GitHub Actions.
 */
export function createProgress(ctx: CliContext, agent: string, todo: readonly { scenario: { id: string } }[]): RunProgress & { finish(): void } {
  const started = Date.now()
  const remaining = new Map<string, number>()
  for (const planned of todo) remaining.set(planned.scenario.id, (remaining.get(planned.scenario.id) ?? 0) + 1)
  const byScenario = new Map<string, Attempt[]>()
  let done = 0
  let passed = 0
  let decided = 0
  let errors = 0

  const githubActions = ctx.env.GITHUB_ACTIONS === 'true'
  const plan = `${plural(todo.length, 'attempt')} of ${plural(remaining.size, 'scenario')}`
  if (!ctx.interactive && githubActions) ctx.stderr.write(`::group::convy-ci ${agent}: ${plan}\n`)
  else if (!ctx.interactive) ctx.stderr.write(`${agent}: ${plan}\n`)

  let lastDraw = 0
  const draw = (force: boolean) => {
    const now = Date.now()
    if (!force && now - lastDraw < REDRAW_MS) return
    lastDraw = now
    const rate = decided ? `${Math.round((100 * passed) / decided)}% passed` : 'no verdict yet'
    const line = `${agent}  ${done}/${todo.length} attempts · ${rate} · ${plural(errors, 'error')} · ${clock(now - started)}`
    ctx.stderr.write(`\r\x1b[2K${line}`)
  }

  return {
    attemptRecorded(attempt) {
      done++
      if (attempt.verdict === 'passed' || attempt.verdict === 'failed') decided++
      if (attempt.verdict === 'passed') passed++
      if (attempt.verdict === 'agent_error' || attempt.verdict === 'no_verdict') errors++
      if (ctx.interactive) return draw(false)
      const list = byScenario.get(attempt.scenario) ?? []
      list.push(attempt)
      byScenario.set(attempt.scenario, list)
      if (list.length === remaining.get(attempt.scenario)) ctx.stderr.write(`  ${scenarioLine(attempt.scenario, list)}\n`)
    },
    finish() {
      if (ctx.interactive) {
        draw(true)
        ctx.stderr.write('\n')
      } else if (githubActions) ctx.stderr.write('::endgroup::\n')
    },
  }
}

function scenarioLine(id: string, attempts: readonly Attempt[]): string {
  const count = (v: Attempt['verdict']) => attempts.filter((a) => a.verdict === v).length
  const passed = count('passed')
  const failed = count('failed')
  const broken = count('agent_error') + count('no_verdict')
  const mark = broken ? '!' : failed === 0 ? '✓' : passed === 0 ? '✗' : '~'
  const parts = [`${passed}/${attempts.length} passed`]
  if (count('agent_error')) parts.push(plural(count('agent_error'), 'agent error'))
  if (count('no_verdict')) parts.push(`${count('no_verdict')} no verdict`)
  return `${mark} ${id}  ${parts.join(' · ')}`
}

function clock(ms: number): string {
  const s = Math.floor(ms / 1000)
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}
