import { countVerdict } from '../../records/journal/attempt-facts.ts'
import { countedAttempts, emptyVerdictCounts, type VerdictCounts } from '../../records/journal/verdict-counts.ts'
import { capped, plural } from '../../views/page/format.ts'
import { forTerminal } from '../../base/shared/invisible.ts'
import { undecidedCount, undecidedCounts } from '../../views/page/verdict-words.ts'
import { ERROR_LABEL, ERRORS_QUOTED, errorKey, errorSource, groupedMessage, isErrorVerdict } from '../../records/tally/error-groups.ts'
import type { RunProgress } from '../../play/runner/play-run.ts'
import { describeSilence, silenceAt, type Silence, type WaitsView } from '../../play/runner/waits.ts'
import type { PipelineContext } from '../../app/pipeline/context.ts'

const REDRAW_MS = 100
const ERROR_CHARACTERS = 300
/** How often a silence (play/runner/waits.ts) is looked at between attempts' ends. */
const SILENCE_CHECK_MS = 1_000

/**
 * On a terminal: one live line (done of total, pass rate so far, errors, elapsed). Elsewhere (CI):
 * one plain line per finished scenario, folded in a group on GitHub Actions. Either way the first
 * few distinct error messages are said when they first happen: an agent that is not up, or one that
 * times out every turn, shows why in the first seconds of a long run, not only at its end. And a
 * party the run waits on (the agent, the models' gateway) that has answered nothing for 15 s is
 * named, with since when: on a terminal on the live line, elsewhere a line once per such silence.
 * Times are read from ctx.now, so a test moves the clock and calls `tick`.
 */
export function createProgress(ctx: PipelineContext, agent: string, todo: readonly { scenario: { id: string } }[], waits?: WaitsView): RunProgress & { finish(): void; tick(): void } {
  const clockNow = () => ctx.now().getTime()
  const started = clockNow()
  const remaining = new Map<string, number>()
  for (const planned of todo) remaining.set(planned.scenario.id, (remaining.get(planned.scenario.id) ?? 0) + 1)
  // Counts only: a scenario's line needs no more than how its attempts ended.
  const byScenario = new Map<string, VerdictCounts>()
  const all = emptyVerdictCounts()
  let done = 0
  let total = todo.length

  const githubActions = ctx.env.GITHUB_ACTIONS === 'true'
  const plan = `${plural(todo.length, 'attempt')} of ${plural(remaining.size, 'scenario')}`
  if (!ctx.interactive && githubActions) ctx.stderr.write(`::group::convy-ci ${agent}: ${plan}\n`)
  else if (!ctx.interactive) ctx.stderr.write(`${agent}: ${plan}\n`)

  const errorsSeen = new Set<string>()
  /** Says an attempt's error if it is one of the first few distinct ones; true when it did. */
  const sayNewError = (attempt: { scenario: string; attempt: number; verdict: string; error: string | null; errorKind?: string }): boolean => {
    // As many distinct messages as the summary quotes at the end, which has the rest.
    if (!isErrorVerdict(attempt.verdict) || errorsSeen.size >= ERRORS_QUOTED) return false
    const message = groupedMessage(attempt.error)
    const source = errorSource({ verdict: attempt.verdict, errorKind: attempt.errorKind })
    const key = errorKey(source, message)
    if (errorsSeen.has(key)) return false
    errorsSeen.add(key)
    const line = `  ! ${ERROR_LABEL[source]}, first in ${attempt.scenario} #${attempt.attempt}: ${forTerminal(capped(message, ERROR_CHARACTERS))}`
    // On a terminal the live line is cleared first and drawn again below the message.
    ctx.stderr.write(ctx.interactive ? `\r\x1b[2K${line}\n` : `${line}\n`)
    return true
  }

  const silence = (now: number): Silence | null => (waits ? silenceAt(waits, now) : null)
  const silenceWords = (s: Silence, now: number) => forTerminal(describeSilence(s, now))

  let lastDraw = -Infinity
  const draw = (force: boolean) => {
    const now = clockNow()
    if (!force && now - lastDraw < REDRAW_MS) return
    lastDraw = now
    const decided = all.passed + all.failed
    const rate = decided ? `${Math.round((100 * all.passed) / decided)}% of ${decided} decided passed` : 'none decided yet'
    const errors = [all.agentErrors && undecidedCount('agent_error', all.agentErrors), all.noVerdicts && undecidedCount('no_verdict', all.noVerdicts)].filter(Boolean)
    const silent = silence(now)
    const line = [`${agent}  ${done}/${total} attempts`, rate, ...errors, ...(silent ? [silenceWords(silent, now)] : []), clock(now - started)].join(' · ')
    ctx.stderr.write(`\r\x1b[2K${line}`)
  }

  // Elsewhere than a terminal, each silence is said once (a party, since a moment).
  const silencesSaid = new Set<string>()
  const tick = () => {
    const now = clockNow()
    if (ctx.interactive) return draw(false)
    const silent = silence(now)
    if (!silent || silencesSaid.has(`${silent.who}\n${silent.since}`)) return
    silencesSaid.add(`${silent.who}\n${silent.since}`)
    ctx.stderr.write(`  … ${silenceWords(silent, now)}\n`)
  }
  // Looked at between attempts' ends too: a run whose every attempt waits prints nothing otherwise.
  const timer = waits ? setInterval(tick, SILENCE_CHECK_MS) : undefined
  timer?.unref()

  return {
    attemptAdded(scenario) {
      total++
      remaining.set(scenario, (remaining.get(scenario) ?? 0) + 1)
    },
    attemptRecorded(attempt) {
      done++
      countVerdict(all, attempt.verdict, attempt.errorKind)
      const said = sayNewError(attempt)
      if (ctx.interactive) return draw(said)
      const counts = byScenario.get(attempt.scenario) ?? emptyVerdictCounts()
      countVerdict(counts, attempt.verdict, attempt.errorKind)
      byScenario.set(attempt.scenario, counts)
      if (countedAttempts(counts) === remaining.get(attempt.scenario)) ctx.stderr.write(`  ${scenarioLine(attempt.scenario, counts)}\n`)
    },
    tick,
    finish() {
      if (timer) clearInterval(timer)
      if (ctx.interactive) {
        draw(true)
        ctx.stderr.write('\n')
      } else if (githubActions) ctx.stderr.write('::endgroup::\n')
    },
  }
}

function scenarioLine(id: string, c: VerdictCounts): string {
  const mark = c.agentErrors + c.noVerdicts ? '!' : c.passed + c.failed === 0 ? '–' : c.failed === 0 ? '✓' : c.passed === 0 ? '✗' : '~'
  // Passed of the attempts that were decided; the others are named by why they were not.
  const parts = c.passed + c.failed ? [`${c.passed}/${c.passed + c.failed} passed`] : []
  parts.push(...undecidedCounts(c))
  return `${mark} ${id}  ${parts.join(' · ')}`
}

function clock(ms: number): string {
  const s = Math.floor(ms / 1000)
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}
