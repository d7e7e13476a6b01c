import { randomUUID } from 'node:crypto'
import type { Conversation } from '../../play/agents/agent.ts'
import { askAgent, closeConversation, openConversation, type StepOptions } from '../../play/conversation/agent-steps.ts'
import { AttemptBuilder } from '../../play/conversation/attempt-builder.ts'
import { decideAttempt } from '../../play/conversation/decide.ts'
import { AgentFailure } from '../../play/conversation/failures.ts'
import { didYouMean } from '../../base/input/did-you-mean.ts'
import type { Attempt, Turn } from '../../records/journal/records.ts'
import { brokenFatalCheck } from '../../play/judge/checks.ts'
import { checkModels, prepareAgent, prepareModels, type PreparedModels } from '../../play/runner/prepare.ts'
import { loadScenarios } from '../../records/scenario/load-scenarios.ts'
import { loadToolSets } from '../../records/scenario/load-tools.ts'
import { DEFAULT_MAX_TURNS, type Check, type Scenario } from '../../records/scenario/scenario.ts'
import { ExitCode, InputError, errorMessage } from '../../base/shared/errors.ts'
import { createMask, maskDeep, type Mask } from '../../base/shared/secrets.ts'
import { saveChat, type SavedChat } from './chat-save.ts'
import type { PipelineContext } from './context.ts'
import { openProject } from './project.ts'

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
  /** Shows the chat to you: the entry point's (a terminal's, entry/cli/chat-printer.ts). */
  printer: ChatPrinter
}

/**
 * What a chat shows, told as events; agent and model text in them is masked but untrusted (the
 * printer escapes it for where it writes).
 */
export interface ChatPrinter {
  /** Before the first line: who you talk to, and the scenario's user and script if one is played. */
  opened(agent: string, scenario: Scenario | undefined): void
  /** Your next line is awaited. */
  prompt(): void
  /** The agent's answer to a line, or its failure (`error` set). */
  agentTurn(turn: Turn & { role: 'agent' }): void
  /** A line starting with `/` that is no command. */
  help(): void
  /** `/save` without a file. */
  saveWhere(): void
  /** `/save` before any line was said. */
  nothingToSave(): void
  saved(saved: SavedChat, lines: number): void
  notSaved(reason: string): void
  /** The answer broke a fatal check of the scenario: the chat ends. */
  fatalCheck(check: Check): void
  /** No more lines are read. */
  ended(): void
  /** How the scenario's checks and judge decided the conversation; `undefined`: the agent never answered. */
  decided(attempt: Attempt | undefined): void
  warning(message: string): void
  error(message: string): void
}

/**
 * `convy-ci chat <agent>`: you play the user. Each line is a turn played as in a run (the same steps
 * of the agent, the same record of the turn); with a scenario, a fatal check ends it as in a run, and
 * at the end its checks and judge decide the conversation. Only the judge is called, never a
 * simulated user.
 */
export async function chat(ctx: PipelineContext, request: ChatRequest): Promise<ExitCode> {
  const project = await openProject(ctx, request)
  const show = request.printer
  const scenario = request.scenario === undefined ? undefined : pickScenario(await loadScenarios(project.scenariosDir, project.projectDir, (m) => show.warning(m), { toolSets: await loadToolSets(project.config.file, project.config.tools) }), request.scenario)
  const agent = await prepareAgent(project.config, request.agent, project.env, { canStripTypes: ctx.canStripTypes })
  const models = scenario && scenario.judge.length > 0 ? prepareModels(project.config, project.env, [{ ...scenario, user: undefined, script: ['-'] }], false) : undefined
  if (models) await checkModels(models)
  const mask = createMask([...agent.secrets, ...(models?.resolved.secrets ?? [])], project.config.redact)
  show.opened(agent.name, scenario)

  const clock = () => performance.now()
  const attempt = new AttemptBuilder(scenario ?? freeChat(), 1, clock, ctx.now)
  const steps: StepOptions = { session: randomUUID(), context: { ...scenario?.context }, turnTimeoutSeconds: request.turnTimeoutSeconds, signal: ctx.signal, mask, clock }
  let conversation: Conversation
  try {
    conversation = await openConversation(agent.agent, steps)
  } catch (error) {
    if (!(error instanceof AgentFailure)) throw error
    show.error(error.message)
    return ExitCode.Failed
  }

  const save = async (path: string) => {
    const lines = attempt.turns.filter((t) => t.role === 'user').map((t) => t.text)
    if (lines.length === 0) return show.nothingToSave()
    show.saved(await saveChat(ctx.cwd, path, { agent: agent.name, lines, scenario, now: ctx.now() }), lines.length)
  }

  let agentFailed = false
  let index = 0
  show.prompt()
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
        if (path === '') show.saveWhere()
        else await save(path).catch((error: unknown) => show.notSaved(errorMessage(error)))
      } else if (line.startsWith('/')) {
        show.help()
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
          show.agentTurn(maskDeep({ role: 'agent', text: '', seconds: error.seconds, tokens: null, error: error.turnError }, mask))
          show.prompt()
          continue
        }
        attempt.agentLine(turn)
        show.agentTurn(maskDeep(turn, mask))
        const broken = scenario && brokenFatalCheck(scenario.checks, turn.text, turn.toolCalls ?? [])
        if (broken) {
          attempt.endedBy = 'stop_check'
          show.fatalCheck(broken)
          break
        }
      }
      show.prompt()
    }
  } finally {
    // Also when the agent's answer was interrupted: stdin is let go either way.
    await typed.return?.()
  }
  show.ended()
  if (ctx.signal.aborted) {
    if (request.save !== undefined) await save(request.save)
    return ExitCode.Interrupted
  }
  try {
    await closeConversation(conversation, steps)
  } catch (error) {
    if (!(error instanceof AgentFailure)) throw error
    show.warning(error.message)
  }
  if (request.save !== undefined) await save(request.save)
  if (!scenario) return agentFailed ? ExitCode.Failed : ExitCode.Ok
  return decideChat(ctx, attempt, models, mask, show)
}

/** The scenario's checks and judge on the conversation, shown as `run --verbose` shows an attempt's. */
async function decideChat(ctx: PipelineContext, attempt: AttemptBuilder, models: PreparedModels | undefined, mask: Mask, show: ChatPrinter): Promise<ExitCode> {
  if (!attempt.turns.some((t) => t.role === 'agent')) {
    show.decided(undefined)
    return ExitCode.Ok
  }
  const context = { signal: ctx.signal, record: attempt.meters.judge.record }
  const { checks, claims } = await decideAttempt(attempt, { judge: models?.judge ?? null, judging: true, mask, context })
  const decided = maskDeep(attempt.finish(checks, claims, { prices: {}, userModel: undefined, judgeModel: models?.judge?.model }), mask)
  show.decided(decided)
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
