import { execFile } from 'node:child_process'
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, posix, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FakeGitHub } from '../fakes/github-server.ts'
import type { FakeRun } from '../fakes/github-world.ts'

/**
 * Runs the bundled action (dist/action.js) the way the runner runs a node24 action: a child process
 * with INPUT_* variables, the event payload in a file, the file commands (GITHUB_OUTPUT,
 * GITHUB_STEP_SUMMARY, …), a runtime token for the results service, and GitHub's addresses pointing
 * at the fake. GITHUB_SERVER_URL stays github.com: the artifact client refuses other hosts.
 */
export const ACTION_BUNDLE = fileURLToPath(new URL('../../dist/action.js', import.meta.url))
/**
 * How long a bundled process may run before it counts as hung and is killed: a guard, not a measure
 * of speed. A step takes seconds alone, but several test files run at once on a shared machine.
 */
export const HANG_GUARD_MS = 300_000
const EXAMPLE = fileURLToPath(new URL('../../scenarios-example/', import.meta.url))

export interface ActionStep {
  /** The workflow run the step is in; its id is GITHUB_RUN_ID. */
  run: FakeRun
  eventName: string
  payload: object
  inputs: Record<string, string>
  workspace: string
  /** The job's name, which the runtime token's scope carries; jobs of one run differ. */
  job?: string
  runAttempt?: number
  /** GITHUB_SHA; on pull_request a merge commit, not the head. Default: the run's head commit. */
  sha?: string
  actor?: string
  env?: Record<string, string>
  /** The bundle to run; default dist/action.js (where the repository's node_modules can be found). */
  bundle?: string
  /**
   * The base commit's files a pull request's gate reads its rules from (the workflow file at
   * GITHUB_WORKFLOW_REF's path and convy.yml). Default: the same rules as this step — its inputs in a
   * workflow file and the workspace's convy.yml — so a step that changes no rule sees no difference.
   * 'as-served': whatever the test put in fake.world.files for the base commit.
   */
  base?: 'as-served'
}

export interface ActionStepResult {
  code: number | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
  summary: string
  annotations: { level: 'error' | 'warning' | 'notice'; message: string }[]
  /** The files left in RUNNER_TEMP when the step ended, relative to it. */
  leftInTemp: string[]
}

/** A fresh copy of scenarios-example as the checked-out repository (results and builds left out). */
export async function exampleWorkspace(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'convy-action-'))
  await cp(EXAMPLE, dir, { recursive: true, filter: (source) => !/[/\\](results|\.convy)([/\\]|$)/.test(source.slice(EXAMPLE.length - 1)) })
  return dir
}

export async function runActionStep(fake: FakeGitHub, step: ActionStep): Promise<ActionStepResult> {
  const home = await mkdtemp(join(tmpdir(), 'convy-runner-'))
  const files = { event: join(home, 'event.json'), output: join(home, 'output'), summary: join(home, 'summary'), env: join(home, 'env'), state: join(home, 'state'), path: join(home, 'path') }
  await writeFile(files.event, JSON.stringify(step.payload))
  await serveBaseRules(fake, step)
  for (const file of [files.output, files.summary, files.env, files.state, files.path]) await writeFile(file, '')
  await mkdir(join(home, 'temp'))
  const { owner, repo } = fake.world
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: step.eventName,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_REPOSITORY: `${owner}/${repo}`,
    GITHUB_REPOSITORY_OWNER: owner,
    GITHUB_RUN_ID: String(step.run.id),
    GITHUB_RUN_NUMBER: String(step.run.id),
    GITHUB_RUN_ATTEMPT: String(step.runAttempt ?? 1),
    GITHUB_SHA: step.sha ?? step.run.headSha,
    GITHUB_REF: step.eventName === 'pull_request' ? 'refs/pull/1/merge' : `refs/heads/${step.run.headBranch}`,
    GITHUB_WORKFLOW: 'convy',
    GITHUB_WORKFLOW_REF: `${owner}/${repo}/.github/workflows/convy.yml@refs/heads/${step.run.headBranch}`,
    GITHUB_JOB: step.job ?? 'convy',
    GITHUB_ACTOR: step.actor ?? 'octocat',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: fake.url,
    GITHUB_GRAPHQL_URL: `${fake.url}/graphql`,
    GITHUB_WORKSPACE: step.workspace,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_ENV: files.env,
    GITHUB_STATE: files.state,
    GITHUB_PATH: files.path,
    RUNNER_TEMP: join(home, 'temp'),
    RUNNER_OS: 'Linux',
    ACTIONS_RUNTIME_TOKEN: fake.runtimeToken(step.run.id, step.job ?? 'convy'),
    ACTIONS_RESULTS_URL: `${fake.url}/`,
    // The cache service GitHub runs today (v2), on the same fake as the results service.
    ACTIONS_CACHE_SERVICE_V2: 'true',
    'INPUT_GITHUB-TOKEN': fake.token,
    ...Object.fromEntries(Object.entries(step.inputs).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value])),
    ...step.env,
  }
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [step.bundle ?? ACTION_BUNDLE], { cwd: step.workspace, env, maxBuffer: 64 * 1024 * 1024, timeout: HANG_GUARD_MS }, (error, out, err) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout: out, stderr: err })
    })
  })
  const result = {
    code,
    stdout,
    stderr,
    outputs: parseFileCommand(await readFile(files.output, 'utf8')),
    summary: await readFile(files.summary, 'utf8'),
    annotations: [...stdout.matchAll(/^::(error|warning|notice)(?: [^:]*)?::(.*)$/gm)].map((m) => ({
      level: m[1] as 'error' | 'warning' | 'notice',
      message: m[2]!.replace(/%0A/g, '\n').replace(/%0D/g, '\r').replace(/%25/g, '%'),
    })),
    leftInTemp: (await readdir(join(home, 'temp'), { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => relative(join(home, 'temp'), join(e.parentPath, e.name))),
  }
  await rm(home, { recursive: true, force: true })
  return result
}

/** The bundled CLI. */
export const CLI_BUNDLE = fileURLToPath(new URL('../../dist/cli.js', import.meta.url))

/** dist/cli.js as another CI would call it: a child process that sees PATH and the given variables only. */
export function runBundledCli(args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI_BUNDLE, ...args], { cwd, env: { PATH: process.env.PATH ?? '', ...env }, timeout: HANG_GUARD_MS }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr })
    })
  })
}

/** `name<<delimiter` … `delimiter` blocks, as core.setOutput writes them. */
function parseFileCommand(text: string): Record<string, string> {
  const values: Record<string, string> = {}
  const pattern = /^([^\n<]+)<<(\S+)\n([\s\S]*?)\n\2$/gm
  for (const match of text.matchAll(pattern)) values[match[1]!] = match[3]!
  return values
}

/** What a test should show when a step did not do what it expected. */
export function describeStep(result: ActionStepResult): string {
  return `exit ${result.code}\n--- stdout\n${result.stdout.slice(-6000)}\n--- stderr\n${result.stderr.slice(-3000)}`
}

/** The workflow file a repository has, with one convy step of these inputs: what the base commit serves. */
export function workflowFile(inputs: Record<string, string>, job = 'convy'): string {
  const withLines = Object.entries(inputs).map(([name, value]) => `          ${name}: ${JSON.stringify(value)}`)
  return `name: convy\non: [pull_request, push]\njobs:\n  ${job}:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v5\n      - uses: convy/action@v1\n        with:\n${withLines.join('\n')}\n`
}

/** The base commit of a pull request's event serves this step's own rules, unless the test serves its own. */
async function serveBaseRules(fake: FakeGitHub, step: ActionStep): Promise<void> {
  const baseSha = (step.payload as { pull_request?: { base?: { sha?: string } } }).pull_request?.base?.sha
  if (!baseSha || step.base === 'as-served') return
  const { 'github-token': _token, ...inputs } = step.inputs
  const dir = inputs['working-directory'] ?? '.'
  const config = join(step.workspace, dir, inputs['config'] ?? 'convy.yml')
  const convyYml = await readFile(config, 'utf8').catch(() => null)
  fake.world.files.delete(baseSha)
  fake.world.commitFiles(baseSha, {
    '.github/workflows/convy.yml': workflowFile(inputs, step.job ?? 'convy'),
    ...(convyYml === null ? {} : { [posix.normalize(posix.join(dir, inputs['config'] ?? 'convy.yml'))]: convyYml }),
  })
}
