import { findRun, readAttempts, readManifest } from '../../journal/read-run.ts'
import { RUN_FORMAT, type RunManifest } from '../../journal/records.ts'
import { RunJournal } from '../../journal/run-journal.ts'
import { newRunId } from '../../journal/run-folder.ts'
import { checkModels, prepareAgent, prepareModels } from '../../runner/prepare.ts'
import type { PlannedAttempt } from '../../runner/select-scenarios.ts'
import { ExitCode, InputError } from '../../shared/errors.ts'
import { createMask } from '../../shared/secrets.ts'
import { CONVY_VERSION } from '../../shared/version.ts'
import { parseCommandArgs, positiveInteger, positiveNumber } from '../args.ts'
import { ciInfo } from '../ci-info.ts'
import type { CliContext } from '../context.ts'
import { execute } from '../execute.ts'
import { openProject } from '../../pipeline/project.ts'
import { processWriter } from '../writer.ts'

/**
 * Plays a recorded run again against the agent as it is now, sending every attempt's user lines as
 * they were recorded: no simulated user is called. With --judge (the default) only the judge is
 * asked; --no-judge decides the checks alone, for free. The result is a new run, comparable with the
 * old one: how a CI failure is reproduced exactly, or a new build measured on yesterday's dialogues.
 */
export async function replayCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = parseCommandArgs('replay', argv, {
    judge: { type: 'boolean' },
    'no-judge': { type: 'boolean' },
    parallel: { type: 'string' },
    'turn-timeout': { type: 'string' },
    config: { type: 'string' },
    results: { type: 'string' },
  })
  if (positionals.length !== 1) throw new InputError('convy-ci replay: give one run (its id, its 4-hex part or its folder)')
  if (values.judge && values['no-judge']) throw new InputError('convy-ci replay: --judge and --no-judge contradict each other; choose one')
  const judging = !values['no-judge']
  const project = await openProject(ctx, values)
  const recorded = await findRun(project.resultsDir, positionals[0]!)
  const original = await readManifest(recorded.dir)

  const scenarios = new Map(original.scenarios.map((s) => [s.id, s]))
  const todo: PlannedAttempt[] = []
  for await (const attempt of readAttempts(recorded.dir)) {
    const scenario = scenarios.get(attempt.scenario)
    if (!scenario) continue
    todo.push({ scenario, attempt: attempt.attempt, userLines: attempt.turns.filter((t) => t.role === 'user').map((t) => t.text) })
  }
  if (todo.length === 0) throw new InputError(`run ${original.id} has no recorded attempts to replay`)
  todo.sort((a, b) => (a.scenario.id === b.scenario.id ? a.attempt - b.attempt : a.scenario.id < b.scenario.id ? -1 : 1))

  const agent = await prepareAgent(project.config, original.agent.name, project.env, { canStripTypes: ctx.canStripTypes })
  // The replay asks no simulated user; it asks the judge only where claims are to be decided.
  const played = todo.map((p) => ({ ...p.scenario, user: undefined, script: p.userLines as string[] }))
  const models = prepareModels(project.config, project.env, judging ? played : [], false)
  await checkModels(models)

  const startedAt = ctx.now()
  const manifest: RunManifest = {
    format: RUN_FORMAT,
    id: newRunId(agent.name, startedAt),
    agent: { name: agent.name, kind: agent.kind, version: agent.version, fingerprint: agent.fingerprint, price: agent.price },
    convyVersion: CONVY_VERSION,
    models: { user: null, judge: models.judge?.model ?? null, fingerprint: models.resolved.fingerprint, prices: models.resolved.config.prices },
    settings: {
      ...original.settings,
      parallel: positiveInteger('--parallel', values.parallel, original.settings.parallel, 1000),
      turnTimeoutSeconds: positiveNumber('--turn-timeout', values['turn-timeout'], original.settings.turnTimeoutSeconds),
      shard: null,
      smoke: false,
    },
    scenarios: original.scenarios,
    startedAt: startedAt.toISOString(),
    finishedAt: null,
    state: 'running',
    ci: ciInfo(ctx.env),
    replayOf: original.id,
  }
  ctx.stderr.write(`replaying ${original.id}: ${todo.length} attempts with their recorded user lines${judging ? '' : ', checks only'}\n`)
  const journal = await RunJournal.create(project.resultsDir, manifest, processWriter(`convy-ci replay ${original.id}`))
  try {
    return (await execute(ctx, {
      journal,
      todo,
      total: todo.length,
      agent,
      models,
      resultsDir: project.resultsDir,
      mask: createMask([...agent.secrets, ...models.resolved.secrets]),
      judging,
    })).exitCode
  } finally {
    await journal.release()
  }
}
