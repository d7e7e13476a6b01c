import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Agent } from '../../play/agents/agent.ts'
import { findConfig, type ProjectConfig } from '../../records/config/load-config.ts'
import { REPORT_FILE } from '../../records/journal/run-folder.ts'
import type { RunSettings } from '../../records/journal/records.ts'
import { writerFor, type ThisProcess } from '../../records/journal/writer.ts'
import type { PipelineContext } from '../../app/pipeline/context.ts'
import { RUN_DEFAULTS } from '../../app/pipeline/defaults.ts'
import { openProject, type Project } from '../../app/pipeline/project.ts'
import { runAgent } from '../../app/pipeline/run-agents.ts'
import { checkModels, prepareAgent, prepareModels, type PreparedAgent } from '../../play/runner/prepare.ts'
import { selectScenarios } from '../../play/runner/select-scenarios.ts'
import { loadScenarios } from '../../records/scenario/load-scenarios.ts'
import { runWorldOf, withWorld } from '../../app/pipeline/run-world.ts'
import { createFetch } from '../../base/http/fetch.ts'
import { loadToolSets } from '../../records/scenario/load-tools.ts'
import { readAllAttempts } from '../../records/journal/read-run.ts'
import { InputError } from '../../base/shared/errors.ts'
import { objectFile } from '../../base/input/yaml-file.ts'
import { fingerprint } from '../../base/shared/fingerprint.ts'
import { createMask } from '../../base/shared/secrets.ts'
import { parseInlineScenarios } from './inline-scenarios.ts'
import { checkOptions, type RunOptions } from './options.ts'
import { scenarioResults, totals } from './result.ts'
import type { RunResult } from './result-types.ts'
import { terminalPrinters } from '../printers/index.ts'

/** What run() takes from the process that calls it; the package's entry (index.ts) passes the real one. */
export interface Host {
  cwd: string
  env: Readonly<Record<string, string | undefined>>
  canStripTypes: boolean
  process: ThisProcess
}

const NOWHERE = { write: () => {} }

/**
 * `import { run } from 'convy-ci'`: one agent's run through the pipeline `convy-ci run` uses (the
 * same checks before anything is played, the same run folder and report), returned as plain data.
 * Bad input throws the CLI's typed errors (`exitCode` 2); a run's outcome is never thrown.
 */
export async function runFromCode(options: RunOptions, host: Host): Promise<RunResult> {
  const o = checkOptions(options)
  const cwd = resolve(host.cwd, o.cwd ?? '.')
  const write = o.write ?? true
  const globs = (o.scenarios ?? []).filter((s): s is string => typeof s === 'string')
  const inline = await parseInlineScenarios((o.scenarios ?? []).flatMap((input, index) => (typeof input === 'string' ? [] : [{ index, input }])))
  const output = o.output ?? NOWHERE
  const ctx: PipelineContext = {
    cwd,
    env: o.env ?? host.env,
    stdout: output,
    stderr: output,
    interactive: false,
    signal: o.signal ?? new AbortController().signal,
    canStripTypes: host.canStripTypes,
    printers: terminalPrinters,
    now: () => new Date(),
    writer: (command) => writerFor(host.process, command),
  }

  const fromFile = globs.length > 0 || inline.length === 0
  const project = await projectFor(ctx, o, typeof o.agent === 'string' || fromFile)
  const warn = (message: string) => output.write(`warning: ${message}\n`)
  const fromProject = fromFile ? selectScenarios(await loadScenarios(project.scenariosDir, project.projectDir, warn, { toolSets: await loadToolSets(project.config.file, project.config.tools) }), { globs, tags: o.tags ?? [] }) : []
  const clash = inline.find((s) => fromProject.some((p) => p.id === s.id))
  if (clash) throw new InputError(`${clash.file}: scenario id "${clash.id}" is also a scenario of the project (${fromProject.find((p) => p.id === clash.id)!.file}); ids must be unique`)
  const scenarios = [...fromProject, ...inline]

  const agent = typeof o.agent === 'string' ? await prepareAgent(project.config, o.agent, project.env, { canStripTypes: ctx.canStripTypes }) : codeAgent(o.agent, o.name ?? 'agent')
  // `models` given in code stands in for the file's section; its errors then name run().
  const modelsConfig: ProjectConfig = o.models ? { ...project.config, models: { ...o.models }, file: objectFile('run()', { models: o.models }) } : project.config
  const settings: RunSettings = {
    k: o.k ?? RUN_DEFAULTS.k,
    parallel: o.parallel ?? RUN_DEFAULTS.parallel,
    turnTimeoutSeconds: o.turnTimeout ?? RUN_DEFAULTS.turnTimeoutSeconds,
    scenarioGlobs: globs,
    tags: [...(o.tags ?? [])],
    smoke: o.smoke ?? false,
    shard: o.shard ?? null,
    budgetUsd: o.budgetUsd ?? null,
    cache: o.cache ?? 'off',
    ...(o.review === undefined ? {} : { review: o.review }),
    ...(o.judgeSamples === undefined ? {} : { judgeSamples: o.judgeSamples }),
  }
  const models = prepareModels(modelsConfig, project.env, scenarios, settings.smoke, { cache: settings.cache, review: settings.review })
  await checkModels(models, settings.cache)

  // write: false still plays through a run folder (the report and the tally read it), in a
  // temporary folder removed at the end.
  const resultsDir = write ? project.resultsDir : await mkdtemp(join(tmpdir(), 'convy-run-'))
  try {
    const world = await runWorldOf(project, agent, scenarios, ctx.canStripTypes)
    const mask = createMask([...agent.secrets, ...models.resolved.secrets, ...world.secrets], project.config.redact)
    const writer = ctx.writer(`run() from ${cwd}`)
    const watch = o.verbose ? ctx.printers.dialogue(output, { parallel: settings.parallel, k: settings.k }) : undefined
    const run = await runAgent(ctx, { agent: withWorld(agent, world), models, mask, settings, scenarios, resultsDir, writer, watch, world })
    const results = scenarioResults(run.tally, await readAllAttempts(run.dir))
    return {
      agent: agent.name,
      id: run.id,
      dir: write ? run.dir : null,
      report: write ? join(run.dir, REPORT_FILE) : null,
      ...totals(run.tally),
      complete: run.tally.attempts === plannedAttempts(scenarios.length * settings.k, settings.shard),
      exitCode: run.exitCode,
      scenarios: results,
    }
  } finally {
    if (!write) await rm(resultsDir, { recursive: true, force: true })
  }
}

/**
 * The project: convy.yml as given, or the nearest from `cwd` upward. Without one, a run whose agent
 * and scenarios are all in code still runs, with `models` from the options and results under `cwd`.
 */
async function projectFor(ctx: PipelineContext, o: RunOptions, needsFile: boolean): Promise<Project> {
  const config = o.config ?? (await findConfig(ctx.cwd))
  if (config !== undefined) return openProject(ctx, { config, results: o.results })
  if (needsFile) {
    throw new InputError(`run(): no convy.yml in ${ctx.cwd} or a folder above it; pass \`config\`, or give both the agent and the scenarios in code`)
  }
  return {
    config: { file: objectFile('run()', { models: o.models ?? {} }), projectDir: ctx.cwd, models: { ...(o.models ?? {}) }, agents: {} },
    projectDir: ctx.cwd,
    scenariosDir: join(ctx.cwd, 'scenarios'),
    resultsDir: o.results ? resolve(ctx.cwd, o.results) : join(ctx.cwd, 'results'),
    env: ctx.env,
  }
}

/** An agent written in code. Its fingerprint is of its code as far as it can be seen: conversation()'s source. */
function codeAgent(agent: Agent, name: string): PreparedAgent {
  return {
    name,
    kind: 'code',
    version: agent.version ?? null,
    fingerprint: fingerprint({ code: String(agent.conversation), version: agent.version ?? null }),
    agent,
    price: null,
    secrets: [],
    world: {},
    templates: {},
    fetch: createFetch(),
  }
}

/** The attempts a run (or its shard: the I-th of N balanced slices) plays. */
function plannedAttempts(all: number, shard: RunSettings['shard']): number {
  if (shard === null) return all
  const size = Math.floor(all / shard.total)
  return size + (shard.index <= all % shard.total ? 1 : 0)
}
