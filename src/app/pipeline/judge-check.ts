import { stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { agreementOf, agreementTable, type Agreement } from '../../base/stats/agreement.ts'
import { InputError } from '../../base/shared/errors.ts'
import { CONVY_VERSION } from '../../base/shared/version.ts'
import { CALIBRATION_FILE, CALIBRATION_FORMAT, judgeOf, writeCalibration, type Calibration, type JudgeIdentity } from '../../records/calibration/calibration.ts'
import { readLabels, type Label } from '../../records/calibration/labels.ts'
import type { PipelineContext } from './context.ts'
import { findLabelledAttempts, type LabelledDecision, attemptKey } from './labelled-attempts.ts'
import { resultsDirOf, openProject, secretsOfProject } from './project.ts'
import { canRejudge } from '../../play/judge/rejudge-attempt.ts'
import { JUDGE_TEMPERATURE, judgePromptFingerprint } from '../../play/judge/judge-prompt.ts'
import { sampledJudge } from '../../play/judge/sampled-judge.ts'
import { checkModels, prepareModels } from '../../play/runner/prepare.ts'
import { createWaits, sayEachSilence, trackedJudge } from '../../play/runner/waits.ts'
import type { Attempt } from '../../records/journal/records.ts'
import { createMask } from '../../base/shared/secrets.ts'
import { judgeAgain } from './rejudge.ts'

export interface JudgeCheckRequest {
  /** labels.jsonl, relative to the working directory. */
  labels: string
  /** Ask this judge model again about the labelled dialogues; default: the decisions recorded in the runs. */
  judge?: string | undefined
  /** With `judge`: judgements per attempt, each claim decided by their majority. */
  samples?: number | undefined
  /** Where calibration.json goes; default beside the labels. */
  out?: string | undefined
  config?: string | undefined
  results?: string | undefined
}

/** A labelled decision where the judge and the person disagree, with the judge's reason. */
export interface Disagreement {
  run: string
  scenario: string
  attempt: number
  claim: number
  claimText: string
  /** The person's answer. */
  holds: boolean
  judgeReason: string
  note: string | null
}

export interface JudgeCheckResult {
  judge: JudgeIdentity
  decisions: Calibration['decisions']
  /** Labels read, after later lines replaced earlier ones about the same decision. */
  labels: number
  replaced: number
  overall: Agreement
  scenarios: { id: string; figures: Agreement }[]
  disagreements: Disagreement[]
  /** Labelled decisions the judge did not make (the attempt had no verdict, or could not be judged again). */
  undecided: { label: Label; why: string }[]
  calibration: Calibration
  /** Where calibration.json was written. */
  path: string
}

/** The judge's answer on one labelled decision, or why it has none. */
export type JudgeAnswer = { holds: boolean; reason: string } | { why: string }

/**
 * `convy-ci judge-check`: the judge's decisions beside a person's labels of them — the recorded ones
 * (no model call) or, with `judge`, a judge asked again about the labelled dialogues — measured
 * (base/stats/agreement.ts) and written to calibration.json, which runs, pages and the gate read.
 */
/** Some 300,000 labels: far more than people label, far less than holding the file takes to refuse. */
const LABELS_MAX_BYTES = 64 * 2 ** 20

const mebibytes = (bytes: number) => (bytes / 2 ** 20).toFixed(bytes < 10 * 2 ** 20 ? 1 : 0)

export async function judgeCheck(ctx: PipelineContext, request: JudgeCheckRequest): Promise<JudgeCheckResult> {
  const labelsPath = resolve(ctx.cwd, request.labels)
  const size = await stat(labelsPath).then(
    (found) => (found.isFile() ? found.size : null),
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw new InputError(`${request.labels}: not found; download labels from a run's report.html ("Download labels") and save them there`)
      throw new InputError(`${request.labels}: cannot be read (${error.code ?? error.message})`)
    },
  )
  if (size === null) throw new InputError(`${request.labels}: not a file`)
  if (size > LABELS_MAX_BYTES) throw new InputError(`${request.labels}: ${mebibytes(size)} MiB; a labels file is at most ${mebibytes(LABELS_MAX_BYTES)} MiB (a line per labelled decision)`)
  const { labels, replaced, sha256: labelsFingerprint } = await readLabels(request.labels, labelsPath, ctx.signal)
  if (labels.length === 0) throw new InputError(`${request.labels}: no labels; mark decisions in a run's report.html and download them`)
  const resultsDir = resultsDirOf(ctx, request)
  const { runs, decisions } = await findLabelledAttempts(request.labels, labels, resultsDir)

  const asked = request.judge !== undefined
  const { judge, answers } = asked ? await askJudgeAgain(ctx, request.judge!, request.samples ?? 1, decisions, request) : recordedAnswers(decisions)

  const judged: { decision: LabelledDecision; answer: { holds: boolean; reason: string } }[] = []
  const undecided: JudgeCheckResult['undecided'] = []
  decisions.forEach((decision, i) => {
    const answer = answers[i]!
    if ('why' in answer) undecided.push({ label: decision.label, why: answer.why })
    else judged.push({ decision, answer })
  })
  if (judged.length === 0) throw new InputError(`${request.labels}: none of its ${labels.length} labelled decisions has a decision of the judge to compare with (${undecided[0]?.why ?? 'none'})`)

  const figures = (subset: typeof judged) => agreementOf(agreementTable(subset.map(({ decision, answer }) => [decision.label.holds, answer.holds] as const)))
  const scenarioIds = [...new Set(judged.map((j) => j.decision.label.scenario))]
  const scenarios = scenarioIds.map((id) => ({ id, figures: figures(judged.filter((j) => j.decision.label.scenario === id)) }))
  const disagreements = judged
    .filter(({ decision, answer }) => decision.label.holds !== answer.holds)
    .map(({ decision: { label, scenario }, answer }): Disagreement => ({
      run: label.run,
      scenario: label.scenario,
      attempt: label.attempt,
      claim: label.claim,
      claimText: scenario.judge[label.claim - 1]!,
      holds: label.holds,
      judgeReason: answer.reason,
      note: label.note ?? null,
    }))
  const overall = figures(judged)
  // A person's note is text they typed: masked, as run.json's copies of scenarios are, with the
  // secrets the project reads and its redact: patterns, before it is printed.
  const secrets = await secretsOfProject(ctx, request)
  const mask = createMask(secrets.values, secrets.redact)
  for (const disagreement of disagreements) if (disagreement.note !== null) disagreement.note = mask(disagreement.note)
  const path = request.out ? resolve(ctx.cwd, request.out) : join(dirname(labelsPath), CALIBRATION_FILE)
  const calibration: Calibration = {
    format: CALIBRATION_FORMAT,
    judge,
    decisions: asked ? 'asked' : 'recorded',
    labels: { file: basename(labelsPath), fingerprint: labelsFingerprint, runs: [...runs.keys()] },
    overall,
    scenarios,
    disagreements: disagreements.length,
    checkedAt: ctx.now().toISOString(),
    convyVersion: CONVY_VERSION,
  }
  await writeCalibration(path, calibration)
  return { judge, decisions: calibration.decisions, labels: labels.length, replaced, overall, scenarios, disagreements, undecided, calibration, path }
}

/**
 * The decisions as the runs recorded them. The figures speak for one judge only, so the labelled runs
 * must have been judged alike; labels across judges are compared by asking one of them (--judge).
 */
function recordedAnswers(decisions: readonly LabelledDecision[]): { judge: JudgeIdentity; answers: JudgeAnswer[] } {
  const judges = new Map<string, { judge: JudgeIdentity; runs: string[] }>()
  for (const { run } of decisions) {
    const judge = judgeOf(run.manifest)
    if (!judge) continue
    const key = JSON.stringify(judge)
    const entry = judges.get(key) ?? { judge, runs: [] }
    if (!entry.runs.includes(run.manifest.id)) entry.runs.push(run.manifest.id)
    judges.set(key, entry)
  }
  if (judges.size === 0) throw new InputError('the labelled runs asked no judge: there are no decisions to check; use --judge MODEL to ask one')
  if (judges.size > 1) {
    const list = [...judges.values()].map(({ judge, runs }) => `"${judge.model}" (prompt ${judge.prompt?.slice(0, 8) ?? 'unrecorded'}, ${judge.samples} sample${judge.samples === 1 ? '' : 's'}) in ${runs.join(', ')}`)
    throw new InputError(`the labelled runs were judged by different judges: ${list.join('; ')}. Check one judge at a time: --judge MODEL asks that judge about every labelled dialogue`)
  }
  const answers = decisions.map(({ label, run, attempt }): JudgeAnswer => {
    if (!judgeOf(run.manifest)) return { why: `run ${run.manifest.id} asked no judge` }
    const claim = attempt.claims[label.claim - 1]
    if (!claim) return { why: `attempt ${label.attempt} of ${label.scenario} has no decision of the judge (${attempt.verdict}${attempt.error ? `: ${attempt.error}` : ''})` }
    return { holds: claim.pass, reason: claim.reason }
  })
  return { judge: [...judges.values()][0]!.judge, answers }
}

/** Attempts asked at once: a labels file is a few hundred decisions over some dozens of attempts. */
const PARALLEL = 4

/**
 * judge-check --judge MODEL: that judge, through convy.yml's gateway, asked `samples` times about each
 * labelled attempt's recorded dialogue (the code `rejudge` uses: one call per attempt and sample,
 * every claim at once). Nothing is written but calibration.json: the answers stay in memory.
 */
export async function askJudgeAgain(
  ctx: PipelineContext,
  model: string,
  samples: number,
  decisions: readonly LabelledDecision[],
  where: { config?: string | undefined; results?: string | undefined },
): Promise<{ judge: JudgeIdentity; answers: JudgeAnswer[] }> {
  const project = await openProject(ctx, where)
  const config = { ...project.config, models: { ...project.config.models, judge: model } }
  const attempts = new Map<string, { attempt: Attempt; decision: LabelledDecision }>()
  for (const decision of decisions) attempts.set(`${decision.run.manifest.id}\n${attemptKey(decision.label.scenario, decision.label.attempt)}`, { attempt: decision.attempt, decision })
  const scenarios = [...new Map(decisions.map((d) => [d.scenario.id, d.scenario])).values()]
  const models = prepareModels(config, project.env, scenarios.map((s) => ({ ...s, user: undefined, script: [] })), false)
  if (!models.judge) throw new InputError('the labelled scenarios have no claims for the judge')
  await checkModels(models)

  // A judge's gateway that hangs is said after 15 s, with since when, not only at its timeout.
  const waits = createWaits(() => ctx.now().getTime())
  const rejudging = { judge: trackedJudge(sampledJudge(models.judge, samples), waits.track), mask: createMask(models.resolved.secrets, project.config.redact), signal: ctx.signal, prices: models.resolved.config.prices, now: ctx.now }
  const keys = [...attempts.keys()]
  // Each run's own scenario by attempt: the same id may have been edited between two labelled runs.
  const byScenario = new Map(keys.map((key) => [key, attempts.get(key)!.decision.scenario]))
  const answered = new Map<string, Attempt>()
  // judgeAgain finds each attempt's scenario by the attempt's `scenario`: here, the run and attempt
  // it came from, so attempts of two runs with one scenario id stay apart.
  const tagged = keys.map((key) => ({ ...attempts.get(key)!.attempt, scenario: key }))
  ctx.stderr.write(`asking judge "${model}" about ${tagged.length} labelled attempt${tagged.length === 1 ? '' : 's'}, ${samples} time${samples === 1 ? '' : 's'} each\n`)
  const silences = sayEachSilence(waits, () => ctx.now().getTime(), (line) => ctx.stderr.write(`  … ${line}\n`))
  await judgeAgain(tagged, byScenario, rejudging, PARALLEL, (again) => void answered.set(again.scenario, again)).finally(() => silences.stop())
  if (ctx.signal.aborted) throw ctx.signal.reason

  const answers = decisions.map(({ label, run, scenario }): JudgeAnswer => {
    const key = `${run.manifest.id}\n${attemptKey(label.scenario, label.attempt)}`
    const original = attempts.get(key)!.attempt
    if (!canRejudge(original, scenario)) return { why: `attempt ${label.attempt} of ${label.scenario} has no whole dialogue to judge (${original.verdict})` }
    const again = answered.get(key)
    const claim = again?.claims[label.claim - 1]
    if (!claim) return { why: `judge "${model}" gave no verdict on attempt ${label.attempt} of ${label.scenario}${again?.error ? `: ${again.error}` : ''}` }
    return { holds: claim.pass, reason: claim.reason }
  })
  return { judge: { model, prompt: judgePromptFingerprint(), temperature: JUDGE_TEMPERATURE, samples }, answers }
}
