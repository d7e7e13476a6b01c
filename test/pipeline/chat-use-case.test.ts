import assert from 'node:assert/strict'
import { test } from 'node:test'
import { chat, type ChatPrinter } from '../../src/app/pipeline/chat.ts'
import type { PipelineContext } from '../../src/app/pipeline/context.ts'
import { ExitCode } from '../../src/base/shared/errors.ts'
import { terminalPrinters } from '../../src/entry/printers/index.ts'
import { processWriter } from '../../src/entry/cli/writer.ts'
import { makeProject } from '../cli/harness.ts'

const CONVY_YML = `models:
  base_url: http://127.0.0.1:9/v1
  api_key: test-key
  user: user-model
  judge: judge-model
agents: {}
`

/** A printer that notes each event it is told, in order, with what it was told about. */
function recordingPrinter(): { printer: ChatPrinter; events: string[] } {
  const events: string[] = []
  const printer: ChatPrinter = {
    opened: (agent, scenario) => void events.push(`opened ${agent} ${scenario?.id ?? '-'}`),
    prompt: () => void events.push('prompt'),
    agentTurn: (turn) => void events.push(`agent ${turn.text}${turn.error === null ? '' : ` ✗ ${turn.error}`}`),
    help: () => void events.push('help'),
    saveWhere: () => void events.push('save where?'),
    nothingToSave: () => void events.push('nothing to save'),
    saved: (saved, lines) => void events.push(`saved ${lines} to ${saved.file}`),
    notSaved: (reason) => void events.push(`not saved: ${reason}`),
    fatalCheck: (check) => void events.push(`fatal ${check.kind}`),
    ended: () => void events.push('ended'),
    decided: (attempt) => void events.push(`decided ${attempt?.verdict ?? 'nothing'}`),
    warning: (message) => void events.push(`warning ${message}`),
    error: (message) => void events.push(`error ${message}`),
  }
  return { printer, events }
}

async function* typed(lines: readonly string[]): AsyncIterable<string> {
  yield* lines
}

test('chat is a use case: lines in, events out to its printer, nothing written to the terminal by itself', async () => {
  const dir = await makeProject({ 'convy.yml': CONVY_YML })
  const written: string[] = []
  const ctx: PipelineContext = {
    cwd: dir,
    env: {},
    stdout: { write: (text) => void written.push(`stdout ${text}`) },
    stderr: { write: (text) => void written.push(`stderr ${text}`) },
    interactive: false,
    signal: new AbortController().signal,
    canStripTypes: false,
    printers: terminalPrinters,
    now: () => new Date(0),
    writer: processWriter,
  }
  const { printer, events } = recordingPrinter()
  const code = await chat(ctx, {
    agent: 'echo',
    turnTimeoutSeconds: 5,
    lines: () => typed(['/save', 'hello', '/what', '   ', 'bye', '/end', 'never read']),
    printer,
  })
  assert.equal(code, ExitCode.Ok)
  assert.deepEqual(events, [
    'opened echo -',
    'prompt',
    'save where?',
    'prompt',
    'agent hello',
    'prompt',
    'help',
    'prompt',
    'prompt',
    'agent bye',
    'prompt',
    'ended',
  ])
  assert.deepEqual(written, [], 'the use case leaves all showing to its printer')
})
