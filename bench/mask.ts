// What masking an attempt costs: maskDeep over an attempt record as the runner masks it when the
// attempt ends, for a typical attempt and for a large one, and for the kinds of text that take the
// mask's slower path (escapes, text beyond ASCII) and the one that does not (plain ASCII).
//
//   node --import tsx bench/mask.ts [--runs 15] [--module <a secrets.ts to compare>] [--redact]
//
// --redact adds convy.yml's redact: patterns of docs/configuration.md (card numbers, e-mail
// addresses) to the mask, as a project that sets them masks every record.
//
// --module loads createMask and maskDeep from another file (e.g. the previous mask, from
// `git show <commit>:src/base/shared/secrets.ts` and the files it imports, into a folder of its
// own), to compare under the same load. Each figure is the median of --runs timings, in milliseconds,
// with the spread (min–max) beside it: the machine is shared. Nothing in the records holds a secret,
// which is the common case and the whole text's cost; a last line masks one that does.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { median } from './median.ts'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' }, module: { type: 'string' }, redact: { type: 'boolean', default: false } } })
const RUNS = Number(values.runs)
const source = values.module ? pathToFileURL(resolve(values.module)).href : new URL('../src/base/shared/secrets.ts', import.meta.url).href
const { createMask, maskDeep } = (await import(source)) as typeof import('../src/base/shared/secrets.ts')

const BOT_TOKEN = 'Cn4ry-b0t-t0ken-9f8e7d'
const API_KEY = 'sk-Cn4ry-m0del-key-31337'
const CARD = String.raw`\b\d{4}(?:[ -]?\d{4}){3}\b`
const EMAIL = String.raw`[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}`
const { parseRedact } = await import('../src/records/config/redact.ts')
const redaction = values.redact ? await parseRedact({ name: 'convy.yml', data: null, lineOf: () => 1, lineOfKey: () => 1 }, [CARD, EMAIL]) : undefined
const mask = createMask([BOT_TOKEN, API_KEY, '8675309123'], redaction)

const PROSE = 'Your order 4412 shipped on Monday; it should arrive within three to five working days. '
const ESCAPED = 'Fish &amp; chips at 50% off: see https://shop.example/a?q=fish%20chips&x=1, or "C:\\Users\\me". '
const WORLD = 'Votre commande a été expédiée lundi — 注文は月曜日に発送されました 🚚. '

function answer(kind: string, chars: number): string {
  const piece = kind === 'ascii' ? PROSE : kind === 'escaped' ? ESCAPED : WORLD
  return piece.repeat(Math.ceil(chars / piece.length)).slice(0, chars)
}

function attempt(kind: string, turns: number, chars: number) {
  return {
    scenario: 'order-status',
    attempt: 1,
    verdict: 'passed',
    error: null,
    claims: [{ claim: 'The agent gave the delivery window', pass: true, reason: answer(kind, 300) }],
    checks: [{ kind: 'contains', value: 'shipped', pass: true, detail: 'answer 1' }],
    turns: Array.from({ length: turns }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'agent',
      text: answer(kind, i % 2 === 0 ? 80 : chars),
      seconds: 1.25,
      tokens: { input: 412, output: 96 },
      error: null,
      toolCalls: i % 2 === 1 ? [{ name: 'lookup_order', arguments: { order: 4412, items: [1, 2, 3] }, result: { status: 'shipped', eta_days: 4 } }] : undefined,
    })),
    agentTokens: { input: 4120, output: 960 },
    models: { user: null, judge: null },
    startedAt: '2026-12-04T16:00:00.000Z',
    seconds: 12.5,
  }
}

function time(work: () => unknown): string {
  const ms: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint()
    work()
    ms.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  return `${median(ms).toFixed(2)} ms (${Math.min(...ms).toFixed(2)}–${Math.max(...ms).toFixed(2)})`
}

console.log(`mask: ${values.module ?? 'src/base/shared/secrets.ts'}${values.redact ? ', with the redact: patterns of docs/configuration.md' : ''}; median of ${RUNS}`)
for (const [label, turns, chars] of [['typical attempt: 8 turns, 600-character answers', 8, 600], ['large attempt: 40 turns, 25,000-character answers (~0.5 MB)', 40, 25_000]] as const) {
  for (const kind of ['ascii', 'escaped', 'world']) {
    const record = attempt(kind, turns, chars)
    const size = JSON.stringify(record).length
    console.log(`${label}, ${kind.padEnd(7)} ${String(size).padStart(8)} chars: ${time(() => maskDeep(record, mask))}`)
  }
}
const leaking = attempt('escaped', 40, 25_000)
leaking.turns[1]!.text += ` ${[...BOT_TOKEN].map((c) => `&#${c.charCodeAt(0)};`).join('')}`
console.log(`large attempt, escaped, one entity-encoded token to mask: ${time(() => maskDeep(leaking, mask))}`)
