import type { WatchAttempt } from '../../play/conversation/watch.ts'
import type { Attempt, ToolCall, Turn } from '../../records/journal/records.ts'
import { seconds } from '../../views/page/format.ts'
import { forTerminal } from '../../base/shared/invisible.ts'
import type { Output } from '../../app/pipeline/context.ts'

const ARGUMENTS_CHARS = 200
const VERDICT_WORD = {
  passed: 'passed',
  failed: 'failed',
  agent_error: 'agent error',
  no_verdict: 'no verdict',
  user_error: "user error: the simulated user's own mistake",
  not_decided: 'not decided',
} as const

/**
 * `run --verbose`: the dialogue as it happens, then the decisions with their reasons. One
 * conversation at a time reads as a dialogue under a heading; several at once are told apart by a
 * `[scenario #attempt]` prefix on every line. Agent and model text is untrusted: control and
 * bidirectional characters are shown escaped, and its line breaks are indented under the speaker.
 */
export function verboseWatcher(out: Output, options: { parallel: number; k: number }): WatchAttempt {
  const prefixed = options.parallel > 1
  return (scenario, attempt) => {
    const prefix = prefixed ? `[${terminalText(scenario.id)} #${attempt}] ` : ''
    const say = (label: string, text: string) => out.write(`${prefix}${label}${terminalText(text, `${' '.repeat(prefix.length)}  `)}\n`)
    if (!prefixed) out.write(`\n── ${terminalText(scenario.id)} · attempt ${attempt} of ${options.k} ──\n`)
    return {
      turn(turn) {
        if (turn.role === 'user') return say('User: ', turn.text)
        for (const [label, text] of agentTurnLines(turn)) say(label, text)
      },
      ended(a) {
        for (const [label, text] of decisionLines(a)) say(label, text)
      },
    }
  }
}

/** An agent's turn as `[label, text]` lines: the answer with its time and tokens, then its tool calls. */
export function agentTurnLines(turn: Turn): [string, string][] {
  const answer = turn.error === null ? turn.text : `${turn.text ? `${turn.text}\n` : ''}✗ ${turn.error}`
  return [[`Agent (${answerFacts(turn)}): `, answer], ...(turn.toolCalls ?? []).map((call): [string, string] => ['  ⚙ ', toolCallText(call)])]
}

/** How an attempt was decided, as `[label, text]` lines: each check and claim with its reason, then the verdict. */
export function decisionLines(a: Attempt): [string, string][] {
  const why = a.error !== null && a.verdict !== 'failed' ? `: ${a.error}` : ''
  return [
    ...a.checks.map((c): [string, string] => ['  ', `${c.pass ? '✓' : '✗'} ${c.kind} ${c.value} — ${c.detail}`]),
    ...a.claims.map((c): [string, string] => ['  ', `${c.pass ? '✓' : '✗'} ${c.claim} — ${c.reason}`]),
    ...(a.review?.decided ? [['  ', `⚑ ${a.review.reason}`] as [string, string]] : []),
    ['→ ', `${VERDICT_WORD[a.verdict]}${why}${a.endedBy === 'stop_check' ? ' (a fatal check ended it)' : ''}`],
  ]
}

/** Untrusted text for the terminal, each continued line indented under its speaker. */
export function terminalText(text: string, indent = ''): string {
  return forTerminal(text.replace(/\r\n?|[\u2028\u2029]/g, '\n').replace(/\t/g, '  '))
    .trimEnd()
    .split('\n')
    .join(`\n${indent}`)
}

function answerFacts(turn: Turn): string {
  const facts = [seconds(turn.seconds)]
  if (turn.tokens) facts.push(`${turn.tokens.input} in / ${turn.tokens.output} out tokens`)
  return facts.join(' · ')
}

function toolCallText(call: ToolCall): string {
  if (call.arguments === undefined) return call.name
  const text = JSON.stringify(call.arguments) ?? String(call.arguments)
  return `${call.name} ${text.length > ARGUMENTS_CHARS ? `${text.slice(0, ARGUMENTS_CHARS)}…` : text}`
}
