import { promptRecord } from '../../play/judge/prompt-record.ts'
import { loadSuite } from '../../records/scenario/load-scenarios.ts'
import { loadToolSets } from '../../records/scenario/load-tools.ts'
import type { RetiredScenario } from '../../records/scenario/scenario.ts'
import { RUN_FORMAT, type RunManifest, type RunSettings } from '../../records/journal/records.ts'
import { RunJournal } from '../../records/journal/run-journal.ts'
import { newRunId } from '../../records/journal/run-folder.ts'
import { agentRecord, checkModels, prepareAgent, prepareModels, startModelCheck, type PreparedAgent, type PreparedModels } from '../../play/runner/prepare.ts'
import { planAttempts, selectScenarios } from '../../play/runner/select-scenarios.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'
import { ExitCode } from '../../base/shared/errors.ts'
import { createMask, type Mask } from '../../base/shared/secrets.ts'
import type { Writer } from '../../records/journal/folder-lock.ts'
import type { WatchAttempt } from '../../play/conversation/watch.ts'
import { CONVY_VERSION } from '../../base/shared/version.ts'
import type { RunTally } from '../../records/tally/run-tally.ts'
import { ciInfo } from '../../adapters/github/ci-info.ts'
import type { PipelineContext } from './context.ts'
import { execute, type Executed } from './execute.ts'
import { openProject } from './project.ts'
import { maskScenarioCopies } from '../../records/journal/scenario-copies.ts'
import { runWorldOf, withWorld } from './run-world.ts'
import { adaptiveRounds, adaptiveSettings, firstRounds, loadAdaptiveBaseline, type AdaptiveBaseline } from './adaptive-rounds.ts'
import type { RunWorld } from '../../play/world/prepare-world.ts'
import { calibrationOfProject } from './judge-calibration.ts'
import type { Calibration } from '../../records/calibration/calibration.ts'
import { endpointIdentity } from '../../base/shared/url-secrets.ts'
import { historyPlan, type HistoryPlan } from './history-plan.ts'
import type { History } from '../../records/tally/trend.ts'
import { plannedAttempts, type AdaptiveRecord } from '../../records/journal/adaptive-record.ts'

export interface RunRequest {
  agents: readonly string[]
  settings: RunSettings
  /** convy.yml, relative to ctx.cwd; default ./convy.yml. */
  config?: string | undefined
  /** Where run folders go; default results/ beside convy.yml. */
  results?: string | undefined
  /** run --verbose: each attempt's dialogue as it happens. */
  watch?: WatchAttempt | undefined
  /**
   * run --adaptive (issue 39): the baseline run each look compares with (its id, 4-hex part or folder),
   * and the ceiling of attempts. The action names each agent's baseline just before that agent's run
   * (it downloads it then); null there: that agent plays its k attempts, as without adaptive.
   */
  adaptive?: { baseline: string | BaselineOfAgent; maxAttempts: number; firstRound?: number } | undefined
  /**
   * Attempts from the trend (issue 39 item 2, history-plan.ts): each agent's history plans its attempts
   * per scenario, `settings.k` the plain number and `floor` the fewest; an agent without history plays
   * k. `historyOf` is given the results folder (the CLI reads results/<agent>/history.json there). `onPlan` hears each agent's plan (null: none) before its run.
   */
  attemptsByHistory?: { historyOf: (agent: string, resultsDir: string) => Promise<History | null>; floor: number; onPlan?: (agent: string, plan: HistoryPlan | null) => void } | undefined
}

/** An agent's baseline for its adaptive rounds, asked for just before its run: a run's folder or id, or null. */
export type BaselineOfAgent = (agent: string) => Promise<string | null>

export interface AgentRun {
  agent: string
  id: string
  dir: string
  exitCode: ExitCode
  /** The run as its report counted it. */
  tally: RunTally
}

/**
 * Plays the scenarios against each agent in turn, a run folder per agent: what `convy-ci run` does
 * after reading its arguments, and what the action calls in-process.
 */
export async function runAgents(ctx: PipelineContext, request: RunRequest): Promise<{ exitCode: ExitCode; runs: AgentRun[] }> {
  // Everything is read and checked for every agent before the first attempt is played.
  const project = await openProject(ctx, request)
  const { settings } = request
  const { adaptive } = request
  // One baseline for every agent (the CLI's) is read and checked before anything is played.
  let sharedBaseline: AdaptiveBaseline | undefined
  if (adaptive) {
    if (typeof adaptive.baseline === 'string') {
      sharedBaseline = await loadAdaptiveBaseline(project.resultsDir, adaptive.baseline)
      // Refuses --max-attempts under -k now, not after the first agent's run.
      adaptiveSettings(sharedBaseline, adaptive.maxAttempts, settings.k)
    }
  }
  /** An agent's settings and baseline: adaptive where it has a baseline, its fixed k otherwise. */
  const adaptiveFor = async (agent: string): Promise<{ settings: RunSettings; adaptiveBaseline?: AdaptiveBaseline }> => {
    if (!adaptive) return { settings }
    const reference = typeof adaptive.baseline === 'string' ? adaptive.baseline : await adaptive.baseline(agent)
    if (reference === null) return { settings }
    const baseline = sharedBaseline ?? (await loadAdaptiveBaseline(project.resultsDir, reference))
    // The action's first round (3 unless `attempts` is set) applies only where there is a baseline to adapt against.
    const k = adaptive.firstRound ?? settings.k
    return { settings: { ...settings, k, adaptive: adaptiveSettings(baseline, adaptive.maxAttempts, k) }, adaptiveBaseline: baseline }
  }
  // The judge's calibration, cited in each run's summary and report; a broken calibration.json stops here.
  const { calibration } = await calibrationOfProject(project.config, ctx.cwd)
  // The gateway answers its check while the scenario files load.
  const earlyCheck = startModelCheck(project.config, project.env, { smoke: settings.smoke, cache: settings.cache ?? 'off' })
  const names = [...new Set(request.agents)]
  const prepared: { agent: PreparedAgent; models: PreparedModels; mask: (t: string) => string; world: RunWorld }[] = []
  let scenarios: Scenario[]
  let retired: RetiredScenario[] = []
  // The models are the same for every agent: one check of their gateway serves all. It is awaited
  // once the first run folder is made, so its answer comes while the run is set up.
  let modelsChecked: Promise<void> = Promise.resolve()
  const cancelCheck = () => earlyCheck?.cancel()
  try {
    const toolSets = await loadToolSets(project.config.file, project.config.tools)
    const suite = await loadSuite(project.scenariosDir, project.projectDir, (message) => ctx.stderr.write(`warning: ${message}\n`), { toolSets })
    scenarios = selectScenarios(suite.scenarios, { globs: settings.scenarioGlobs, tags: settings.tags })
    retired = suite.retired
    for (const name of names) {
      const agent = await prepareAgent(project.config, name, project.env, { canStripTypes: ctx.canStripTypes })
      const models = prepareModels(project.config, project.env, scenarios, settings.smoke, { cache: settings.cache ?? 'off', review: settings.review, fetch: earlyCheck?.fetch })
      const world = await runWorldOf(project, agent, scenarios, ctx.canStripTypes, suite.files)
      prepared.push({ agent: withWorld(agent, world), models, world, mask: createMask([...agent.secrets, ...models.resolved.secrets, ...world.secrets], project.config.redact) })
    }
    const unchecked = settings.smoke ? scenarios.filter((s) => s.stopIf?.length).length : 0
    if (unchecked > 0) ctx.stderr.write(`warning: --smoke calls no judge, so the stop_if claims of ${unchecked} scenario${unchecked === 1 ? '' : 's'} are not checked\n`)
    if (prepared[0]) modelsChecked = checkModels(prepared[0].models, settings.cache ?? 'off', earlyCheck)
  } catch (error) {
    cancelCheck()
    throw error
  }
  // Awaited by the first run; until then a refusal is held, not reported as unhandled.
  modelsChecked.catch(() => undefined)
  // Ctrl+C while the gateway is still answering ends the wait at once.
  ctx.signal.addEventListener('abort', cancelCheck, { once: true })

  let exitCode: ExitCode = ExitCode.Ok
  const runs: AgentRun[] = []
  const writer = ctx.writer(`convy-ci run ${names.join(' ')}`)
  try {
    for (const { agent, models, mask, world } of prepared) {
      if (ctx.signal.aborted) break
      const { settings, adaptiveBaseline } = await adaptiveFor(agent.name)
      const byHistory = request.attemptsByHistory
      const planned = byHistory && !settings.adaptive ? historyPlan(await byHistory.historyOf(agent.name, project.resultsDir), agent.name, scenarios.map((s) => s.id), { plain: settings.k, floor: byHistory.floor }) : null
      byHistory?.onPlan?.(agent.name, planned)
      const played = planned ? { settings: { ...settings, attemptsByHistory: planned.settings }, planned: planned.record } : { settings }
      const run = await runAgent(ctx, { agent, models, mask, world, ...played, scenarios, retired, resultsDir: project.resultsDir, writer, watch: request.watch, ready: modelsChecked, calibration, adaptiveBaseline })
      runs.push(run)
      exitCode = worst(exitCode, run.exitCode)
    }
  } finally {
    ctx.signal.removeEventListener('abort', cancelCheck)
    cancelCheck()
  }
  return { exitCode, runs }
}

/** One agent's run, everything prepared and checked: a run folder, its attempts, its report. */
export interface AgentRunPlan {
  agent: PreparedAgent
  models: PreparedModels
  mask: Mask
  settings: RunSettings
  scenarios: readonly Scenario[]
  /** Scenario files kept with `retired: <reason>`: not played, listed in run.json (verdict/ shows them). */
  retired?: readonly RetiredScenario[]
  resultsDir: string
  writer: Writer
  watch?: WatchAttempt | undefined
  /**
   * Settles when attempts may start: the models' gateway check, answering while the run folder is
   * made. If it rejects, the folder (nothing played in it yet) is removed and the error thrown.
   */
  ready?: Promise<void> | undefined
  /** The project's judge calibration, cited in the summary and the report when it is of this run's judge. */
  calibration?: Calibration | null | undefined
  /** Each scenario's world (play/world/); absent: the scenarios' own context and limits. */
  world?: RunWorld | undefined
  /** With settings.adaptive: the baseline's counts the rounds compare with. */
  adaptiveBaseline?: AdaptiveBaseline | undefined
  /** With settings.attemptsByHistory: each scenario's attempts planned from the history (history-plan.ts). */
  planned?: AdaptiveRecord | undefined
}

/** Plays one agent's run into a new run folder: what runAgents does per agent, and what the library calls. */
export async function runAgent(ctx: PipelineContext, plan: AgentRunPlan): Promise<AgentRun> {
  const { agent, models, settings, resultsDir } = plan
  const manifest = newManifest(ctx, agent, models, settings, maskScenarioCopies(plan.scenarios, plan.mask), plan.retired ?? [])
  // An adaptive shard owns whole scenarios (its rounds decide on all of their attempts); run.json lists them all.
  if (settings.adaptive) manifest.adaptive = firstRounds(plan.scenarios, settings.k, settings.shard)
  else if (plan.planned) manifest.adaptive = plan.planned
  const journal = await RunJournal.create(resultsDir, manifest, plan.writer)
  if (settings.adaptive && !plan.adaptiveBaseline) throw new Error('runAgent: an adaptive run needs its baseline')
  // Adaptive: the first round of every scenario; the rounds add the next ones as each scenario's ends.
  // The rounds play the scenarios as given, not run.json's masked copies.
  const rounds = settings.adaptive ? adaptiveRounds(journal, plan.adaptiveBaseline!, plan.scenarios) : undefined
  const todo = rounds ? rounds.start([]) : planAttempts(plan.scenarios, (id) => plannedAttempts(manifest, id), settings.shard)
  try {
    await plan.ready
  } catch (error) {
    await journal.discard()
    throw ctx.signal.aborted ? ctx.signal.reason : error
  }
  let executed: Executed
  try {
    executed = await execute(ctx, { journal, todo, total: todo.length, agent, models, resultsDir, mask: plan.mask, watch: plan.watch, calibration: plan.calibration, world: plan.world, rounds })
  } finally {
    await journal.release()
  }
  return { agent: agent.name, id: journal.current.id, dir: journal.dir, exitCode: executed.exitCode, tally: executed.tally }
}

function newManifest(ctx: PipelineContext, agent: PreparedAgent, models: PreparedModels, settings: RunSettings, scenarios: readonly Scenario[], retired: readonly RetiredScenario[]): RunManifest {
  const startedAt = ctx.now()
  return {
    format: RUN_FORMAT,
    id: newRunId(agent.name, startedAt),
    agent: agentRecord(agent),
    convyVersion: CONVY_VERSION,
    models: {
      user: models.user?.model ?? null,
      judge: models.judge?.model ?? null,
      judgeEndpoint: models.judge ? endpointIdentity(models.resolved.baseURL) : null,
      fingerprint: models.resolved.fingerprint,
      prices: models.resolved.config.prices,
    },
    prompts: promptRecord({ judge: models.judge !== null, user: models.user !== null, judgeSamples: settings.judgeSamples, review: models.reviewer !== null }),
    // What was done, not what was asked: no review without a simulated user and a judge's model.
    settings: { ...settings, review: models.reviewer !== null },
    scenarios: [...scenarios],
    ...(retired.length ? { retired: [...retired] } : {}),
    startedAt: startedAt.toISOString(),
    finishedAt: null,
    state: 'running',
    ci: ciInfo(ctx.env),
  }
}

/** With several agents, the exit code is the most serious one. */
export function worst(a: ExitCode, b: ExitCode): ExitCode {
  const rank = (c: ExitCode) => [ExitCode.Ok, ExitCode.Inconclusive, ExitCode.Failed, ExitCode.BadInput, ExitCode.Interrupted].indexOf(c)
  return rank(b) > rank(a) ? b : a
}
