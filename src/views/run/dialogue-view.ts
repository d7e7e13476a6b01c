import type { Attempt, ServedTools, Turn } from '../../records/journal/records.ts'
import { callsByAnswer, type SeenCall } from '../../records/journal/tool-evidence.ts'
import { decisionRows, type DecisionRow } from './decisions-view.ts'
import { capped, count, seconds, shownText } from '../page/format.ts'
import { html, jsonForScript, type SafeHtml } from '../page/html.ts'
import type { DialogueSlot } from '../../records/tally/run-tally.ts'

/**
 * A dialogue turn as the page shows it. The same row is written out as HTML (small runs, readable
 * with JavaScript off) or embedded as JSON and drawn by the page script (large runs); keeping one
 * shape for both means both look the same.
 *
 * [role, label, meta, head, rest, moreLabel, cutNote, error, tools?]
 */
export type TurnRow = [role: 'user' | 'agent', label: string, meta: string, head: string, rest: string, moreLabel: string, cutNote: string, error: string, tools?: ToolRow[]]

/**
 * A tool the agent called before it answered: [name, arguments as JSON, result, served?]. The result
 * is there where the protocol carries it (the AI SDK's tool outputs, A2A artifacts, LangGraph tool
 * messages), and always for a call convy-ci's tools served: a text as it came, anything else as
 * compact JSON, a tool error as `error: …`; '' when none was recorded. `served` marks a call
 * convy-ci's own tools answered (play/tools/), with the fault injected on purpose when there was one.
 */
export type ToolRow = [name: string, args: string, result: string, served?: string]

function answerMeta(turn: Turn): string {
  if (turn.role !== 'agent') return ''
  const parts = [seconds(turn.seconds)]
  if (turn.firstTokenSeconds !== undefined) parts.push(`first token ${seconds(turn.firstTokenSeconds)}`)
  if (turn.tokens) parts.push(`${count(turn.tokens.input)} in / ${count(turn.tokens.output)} out tokens`)
  return parts.join(' · ')
}

// Arguments and results can be anything an agent sent: shown as compact JSON (a result that is text
// as it came), cut like any long text; the page escapes them as it escapes every text from an agent.
function toolRows(calls: readonly SeenCall[]): ToolRow[] {
  return calls.map((call): ToolRow => {
    const row: ToolRow = [capped(call.name, 200), call.arguments === undefined ? '' : capped(JSON.stringify(call.arguments) ?? '', 1_000), call.error === undefined ? resultText(call.result) : capped(`error: ${call.error}`, 1_000)]
    if (call.served) row.push(call.fault === undefined ? 'served' : capped(`served · fault: ${call.fault}`, 300))
    return row
  })
}

/** Each agent turn's calls (a failed one's too): reported, and served during it, each call once (tool-evidence.ts). */
function callsPerTurn(turns: readonly Turn[], served: ServedTools | undefined): Map<Turn, SeenCall[]> {
  const agentTurns = turns.filter((turn) => turn.role === 'agent')
  const calls = callsByAnswer(agentTurns.length, agentTurns.map((turn) => turn.toolCalls ?? []), served?.calls)
  return new Map(agentTurns.map((turn, i) => [turn, calls[i]!]))
}

function resultText(result: unknown): string {
  if (result === undefined) return ''
  return capped(typeof result === 'string' ? result : (JSON.stringify(result) ?? ''), 1_000)
}

function errorLine(turn: Turn): string {
  if (turn.error === null) return ''
  const shown = shownText(turn.error, 2_000, 2_000)
  const cut = shown.length > shown.head.length ? ` … (${count(shown.length)} characters in all)` : ''
  return `${turn.role === 'agent' ? 'Agent error' : 'Simulated user failed'}: ${shown.head}${cut}`
}

function turnRow(turn: Turn, calls: readonly SeenCall[] = turn.toolCalls ?? [], text = turn.text, meta = answerMeta(turn)): TurnRow {
  const shown = shownText(text)
  const kept = shown.head.length + shown.rest.length
  const row: TurnRow = [
    turn.role,
    turn.role === 'agent' ? 'Agent' : 'User',
    meta,
    shown.head,
    shown.rest,
    shown.rest ? `Show all ${count(Math.min(shown.length, kept))} characters` : '',
    kept < shown.length ? `The page keeps the first ${count(kept)} of ${count(shown.length)} characters; attempts.jsonl has all of them.` : '',
    errorLine(turn),
  ]
  const tools = toolRows(calls)
  if (tools.length > 0) row.push(tools)
  return row
}

/**
 * An answer of several messages is drawn as several bubbles, as the user saw them: the first carries
 * the answer's time, tokens and tool calls, and each says which message of how many it is.
 */
function turnRows(turn: Turn, calls?: readonly SeenCall[]): TurnRow[] {
  const messages = turn.messages
  if (turn.role !== 'agent' || messages === undefined || messages.length < 2) return [turnRow(turn, calls)]
  const of = (i: number) => `message ${i + 1} of ${messages.length}`
  return messages.map((message, i) => (i === 0 ? turnRow(turn, calls, message, `${of(i)} · ${answerMeta(turn)}`) : turnRow({ ...turn, toolCalls: undefined, error: null }, [], message, of(i))))
}

/** No whitespace between tags: message text is shown pre-wrapped, so stray spaces would show. */
function turnMarkup([role, label, meta, head, rest, moreLabel, cutNote, error, tools]: TurnRow): SafeHtml {
  return html`<div class="turn ${role}${error ? ' err' : ''}"><div class="turn-h"><span class="who">${label}</span>${
    meta ? html`<span class="meta">${meta}</span>` : ''
  }</div>${tools ? toolsMarkup(tools) : ''}<div class="text">${head}${rest ? html`<details class="more"><summary>${moreLabel}</summary>${rest}</details>` : ''}</div>${
    cutNote ? html`<p class="cut">${cutNote}</p>` : ''
  }${error ? html`<div class="error">${error}</div>` : ''}</div>`
}

function toolsMarkup(tools: readonly ToolRow[]): SafeHtml {
  return html`<ul class="tools" aria-label="Tool calls">${tools.map(
    ([name, args, result, served]) =>
      html`<li${served ? html` class="served"` : ''}><span class="tool">${name}</span>${args ? html` <span class="args">${args}</span>` : ''}${result ? html` <span class="result" title="What the tool returned">→ ${result}</span>` : ''}${
        served ? html` <span class="served-by" title="Served and recorded by convy-ci's tools">${served}</span>` : ''
      }</li>`,
  )}</ul>`
}

/** `served`: the attempt's served tools, whose calls show in the turn they came during. */
export function dialogueMarkup(turns: readonly Turn[], served?: ServedTools): SafeHtml {
  if (turns.length === 0) return html`<div class="dialogue"><p class="note">No turns were played.</p></div>`
  const calls = callsPerTurn(turns, served)
  return html`<div class="dialogue">${turns.flatMap((turn) => turnRows(turn, calls.get(turn))).map(turnMarkup)}</div>`
}

/** A placeholder the page script fills from the data block `dataId` when its section opens. */
export function lazyDialogueMarkup(dataId: string): SafeHtml {
  return html`<div class="dialogue" data-dialogue="${dataId}"></div>`
}

/** Said once, above the scenarios, when dialogues are embedded as data: only without JavaScript. */
export const LAZY_DIALOGUES_NOTE = html`<p class="banner" data-without-js>This run is large, so its dialogues are embedded as data that the page's script draws when a scenario opens. With JavaScript off, every verdict and reason is here; the dialogues are in attempts.jsonl.</p>`

/** What a data block holds: the turns, and the decisions when the page left them out of its HTML. */
export interface DialogueData {
  t: TurnRow[]
  d?: DecisionRow[]
}

/**
 * An attempt of a large page: its slot, and the data block for the end of the page. A passed
 * attempt's decisions (every one held) travel in the data, so the HTML stays small and fast to open;
 * anything that did not pass keeps its decisions in the HTML, readable without JavaScript.
 */
export function embedAttempt(dataId: string, attempt: Attempt): { slot: DialogueSlot; block: string } {
  const decisions = attempt.verdict === 'passed'
  const calls = callsPerTurn(attempt.turns, attempt.tools)
  const data: DialogueData = { t: attempt.turns.flatMap((turn) => turnRows(turn, calls.get(turn))) }
  if (decisions) data.d = decisionRows(attempt.claims, attempt.checks)
  return { slot: { kind: 'lazy', id: dataId, decisions }, block: `<script type="application/json" id="${dataId}">${jsonForScript(data)}</script>\n` }
}
