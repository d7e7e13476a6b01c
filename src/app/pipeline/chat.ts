import { randomUUID } from 'node:crypto'
import type { Conversation } from '../../play/agents/agent.ts'
import { askAgent, closeConversation, openConversation, type StepOptions } from '../../play/conversation/agent-steps.ts'
import { AttemptBuilder } from '../../play/conversation/attempt-builder.ts'
import { decideAttempt } from '../../play/conversation/decide.ts'
import { AgentFailure } from '../../play/conversation/failures.ts'
import { didYouMean } from '../../base/input/did-you-mean.ts'
import type { Turn } from '../../records/journal/records.ts'
import { brokenFatalCheck } from '../../play/judge/checks.ts'
import { checkModels, prepareAgent, prepareModels, type PreparedModels } from '../../play/runner/prepare.ts'
import { loadScenarios } from '../../records/scenario/load-scenarios.ts'
import { checkText, DEFAULT_MAX_TURNS, type Scenario } from '../../records/scenario/scenario.ts'
import { ExitCode, InputError, errorMessage } from '../../base/shared/errors.ts'
import { createMask, maskDeep, type Mask } from '../../base/shared/secrets.ts'
import { saveChat } from './chat-save.ts'
import type { PipelineContext } from './context.ts'
import { openProject } from './project.ts'
import { agentTurnLines, decisionLines, terminalText } from './verbose.ts'

const HELP_LINE = 'Type as the user; /save <file> keeps the conversation as a scenario, /end (or Ctrl+D) ends it.'

export interface ChatRequest {
  agent: string
  /** A scenario of the project to play by: its checks and judge decide at the end. */
  scenario?: string | undefined
  /** Where to save the conversation as a scenario when it ends. */
  save?: string | undefined
  turnTimeoutSeconds: number
  config?: string | undefined
  /** The user's lines as typed (standard input); called when the first line is wanted, since a
   * reader opened earlier may lose lines that arrive while the agent is being prepared. */
  lines: () => AsyncIterable<string>
}

/**
 * `convy-ci chat <agent>`: you play the user. Each line is a turn played as in a run (the same steps
 * of the agent, the same record of the turn); with a scenario, a fatal check ends it as in a run, and
 * at the end its checks and judge decide the conversation. Only the judge is called, never a
 * simulated user.
 */
export async function chat(ctx: PipelineContext, request: ChatRequest): Promise<ExitCode> {
  const project = await openProject(ctx, request)
  const warn = (message: string) => ctx.stderr.write(`warning: ${message}\n`)
  const scenario = request.scenario === undefined ? undefined : pickScenario(await loadScenarios(project.scenariosDir, project.projectDir, warn), request.scenario)
  const agent = await prepareAgent(project.config, request.agent, project.env, { canStripTypes: ctx.canStripTypes })
  const models = scenario && scenario.judge.length > 0 ? prepareModels(project.config, project.env, [{ ...scenario, user: undefined, script: ['-'] }], false) : undefined
  if (models) await checkModels(models)
  const mask = createMask([...agent.secrets, ...(models?.resolved.secrets ?? [])])
  const out = (text: string) => ctx.stdout.write(text)
  const say = ([label, text]: [string, string]) => out(`${label}${terminalText(mask(text), '  ')}\n`)

  out(`Chatting with ${agent.name}${scenario ? ` on scenario ${scenario.id}` : ''}. ${HELP_LINE}\n`)
  if (scenario?.user !== undefined) out(`\nYou play:\n  ${terminalText(scenario.user, '  ')}\n`)
  if (scenario?.script !== undefined) out(`\nIts script:\n${scenario.script.map((line) => `  - ${terminalText(line, '    ')}`).join('\n')}\n`)

  const clock = () => performance.now()
  const attempt = new AttemptBuilder(scenario ?? freeChat(), 1, clock, ctx.now)
  const steps: StepOptions = { session: randomUUID(), turnTimeoutSeconds: request.turnTimeoutSeconds, signal: ctx.signal, mask, clock }
  let conversation: Conversation
  try {
    conversation = await openConversation(agent.agent, steps)
  } catch (error) {
    if (!(error instanceof AgentFailure)) throw error
    ctx.stderr.write(`error: ${terminalText(error.message)}\n`)
    return ExitCode.Failed
  }

  const save = async (path: string) => {
    const lines = attempt.turns.filter((t) => t.role === 'user').map((t) => t.text)
    if (lines.length === 0) return out('Nothing to save yet: say something first.\n')
    const saved = await saveChat(ctx.cwd, path, { agent: agent.name, lines, scenario, now: ctx.now() })
    out(`Saved ${lines.length === 1 ? 'the line' : `${lines.length} lines`} as a scenario script: ${saved.file}${saved.needsDecisions ? ' (add `judge:` claims or `checks:` before running it)' : ''}\n`)
  }

  let agentFailed = false
  let index = 0
  out('\nYou: ')
  const typed = request.lines()[Symbol.asyncIterator]()
  // Ctrl+C also ends the wait for your next line, not only the agent's answer.
  const interrupted = new Promise<IteratorResult<string>>((done) => {
    if (ctx.signal.aborted) done({ done: true, value: undefined })
    ctx.signal.addEventListener('abort', () => done({ done: true, value: undefined }), { once: true })
  })
  try {
    for (;;) {
      const next = await Promise.race([typed.next(), interrupted])
      if (next.done || ctx.signal.aborted) break
      const line = next.value.trim()
      if (line === '/end' || line === '/quit' || line === '/exit') break
      if (line.startsWith('/save')) {
        const path = line.slice('/save'.length).trim()
        if (path === '') out('Say where: /save scenarios/my-chat.yml\n')
        else await save(path).catch((error: unknown) => out(`Not saved: ${terminalText(errorMessage(error))}\n`))
      } else if (line.startsWith('/')) {
        out(`${HELP_LINE}\n`)
      } else if (line !== '') {
        const history = [...attempt.history]
        attempt.userLine(line, 0)
        let turn: Turn & { role: 'agent' }
        try {
          turn = await askAgent(conversation, index++, line, history, steps)
        } catch (error) {
          if (!(error instanceof AgentFailure)) throw error
          // The first failure decides the conversation; you may still go on talking.
          agentFailed = true
          attempt.fail(error)
          agentTurnLines({ role: 'agent', text: '', seconds: error.seconds, tokens: null, error: error.turnError }).forEach(say)
          out('You: ')
          continue
        }
        attempt.agentLine(turn)
        agentTurnLines(turn).forEach(say)
        const broken = scenario && brokenFatalCheck(scenario.checks, turn.text, turn.toolCalls ?? [])
        if (broken) {
          attempt.endedBy = 'stop_check'
          out(`The answer broke a fatal check (${broken.kind} ${terminalText(checkText(broken))}): the conversation ends here.\n`)
          break
        }
      }
      out('You: ')
    }
  } finally {
    // Also when the agent's answer was interrupted: stdin is let go either way.
    await typed.return?.()
  }
  out('\n')
  if (ctx.signal.aborted) {
    if (request.save !== undefined) await save(request.save)
    return ExitCode.Interrupted
  }
  try {
    await closeConversation(conversation, steps)
  } catch (error) {
    if (!(error instanceof AgentFailure)) throw error
    ctx.stderr.write(`warning: ${terminalText(error.message)}\n`)
  }
  if (request.save !== undefined) await save(request.save)
  if (!scenario) return agentFailed ? ExitCode.Failed : ExitCode.Ok
  return decideChat(ctx, attempt, models, mask)
}

/** The scenario's checks and judge on the conversation, shown as `run --verbose` shows an attempt's. */
async function decideChat(ctx: PipelineContext, attempt: AttemptBuilder, models: PreparedModels | undefined, mask: Mask): Promise<ExitCode> {
  if (!attempt.turns.some((t) => t.role === 'agent')) {
    ctx.stdout.write('No answer to decide on.\n')
    return ExitCode.Ok
  }
  const context = { signal: ctx.signal, record: attempt.meters.judge.record }
  const { checks, claims } = await decideAttempt(attempt, { judge: models?.judge ?? null, judging: true, mask, context })
  const decided = maskDeep(attempt.finish(checks, claims, { prices: {}, userModel: undefined, judgeModel: models?.judge?.model }), mask)
  for (const [label, text] of decisionLines(decided)) ctx.stdout.write(`${label}${terminalText(text, '    ')}\n`)
  return decided.verdict === 'agent_error' || decided.verdict === 'no_verdict' ? ExitCode.Failed : ExitCode.Ok
}

function pickScenario(scenarios: readonly Scenario[], id: string): Scenario {
  const found = scenarios.find((s) => s.id === id)
  if (found) return found
  const hint = didYouMean(id, scenarios.map((s) => s.id))
  throw new InputError(`--scenario ${id}: no such scenario${hint ? ` — did you mean "${hint}"?` : ''}`)
}

/** A chat without a scenario: nothing to decide, the turns are only recorded. */
function freeChat(): Scenario {
  return { id: 'chat', file: '', maxTurns: DEFAULT_MAX_TURNS, judge: [], checks: [], tags: [] }
}
