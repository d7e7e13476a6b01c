import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { after, before, describe, test } from 'node:test'

// These tests use the built package (dist/): run `npm run build` first.
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const run = promisify(execFile)

/** A folder whose node_modules/convy-ci is this package, as `npm i convy-ci` would leave it. */
async function installedAs(dir: string, how: 'link' | 'types-only'): Promise<void> {
  const target = join(dir, 'node_modules', 'convy-ci')
  await mkdir(join(dir, 'node_modules'), { recursive: true })
  if (how === 'link') return symlink(ROOT, target, 'dir')
  // Only package.json and the declarations: whatever they import must be in them, not in our node_modules.
  await mkdir(join(target, 'dist'), { recursive: true })
  await cp(join(ROOT, 'package.json'), join(target, 'package.json'))
  await cp(join(ROOT, 'dist', 'types'), join(target, 'dist', 'types'), { recursive: true })
}

describe('the package entries, as a user installs them', () => {
  let dir: string
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'convy-entries-'))
  })
  after(() => rm(dir, { recursive: true, force: true }))

  test('convy-ci/testing serves a real run of the built CLI: the scripted user speaks, the rule judge decides', async () => {
    const project = join(dir, 'project')
    await installedAs(project, 'link')
    await mkdir(join(project, 'scenarios'), { recursive: true })
    await writeFile(join(project, 'convy.yml'), 'models:\n  base_url: ${CONVY_BASE_URL}\n  api_key: test-key\n  user: fake-user\n  judge: fake-judge\nagents: {}\n')
    await writeFile(join(project, 'scenarios', 'greet.yml'), 'user: Say hello, then thank the agent.\njudge:\n  - The agent repeated the thanks\n')
    // Imported through the package's exports map, from the user's folder.
    await writeFile(join(project, 'serve.mjs'), "export { startFakeModelServer, scriptedUser, judgeByRule, STOP_WORD } from 'convy-ci/testing'\n")
    const testing = (await import(pathToFileURL(join(project, 'serve.mjs')).href)) as typeof import('../../src/entry/testing/index.ts')
    assert.equal(testing.STOP_WORD, '###STOP###')
    const server = await testing.startFakeModelServer({
      user: testing.scriptedUser(['hello there', `thanks a lot ${testing.STOP_WORD}`]),
      judge: testing.judgeByRule((_claim, dialogue) => dialogue.some((line) => line.role === 'agent' && line.text.includes('thanks a lot'))),
    })
    try {
      const cli = join(ROOT, 'dist', 'cli.js')
      const { stdout } = await run(process.execPath, [cli, 'run', 'echo'], { cwd: project, env: { ...process.env, CONVY_BASE_URL: server.url } })
      assert.match(stdout, /greet/)
      assert.deepEqual(
        server.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.kind),
        ['user', 'user', 'judge'],
      )
      const runs = join(project, 'results', 'echo')
      const [folder] = await (await import('node:fs/promises')).readdir(runs)
      const attempt = JSON.parse((await readFile(join(runs, folder!, 'attempts.jsonl'), 'utf8')).trim()) as { verdict: string; turns: { text: string }[] }
      assert.equal(attempt.verdict, 'passed')
      assert.deepEqual(attempt.turns.map((t) => t.text), ['hello there', 'hello there', 'thanks a lot', 'thanks a lot'])
    } finally {
      await server.close()
    }
  })

  test('the declarations of convy-ci and convy-ci/testing type-check on their own (no zod, openai or undici needed), run() included', async () => {
    const consumer = join(dir, 'consumer')
    await installedAs(consumer, 'types-only')
    await writeFile(
      join(consumer, 'check.ts'),
      `import { defineAgent, postJson, run, InputError, type RunResult } from 'convy-ci'
import { startFakeModelServer, scriptedUser, judgeByRule, fakeReply, type FakeModelServer, type DialogueLine } from 'convy-ci/testing'
export const agent = defineAgent({ conversation: () => ({ answer: async (text: string) => ({ text: String(await postJson('http://x', { text })) }) }) })
const judge = judgeByRule((claim: string, dialogue: readonly DialogueLine[]) => dialogue.length > 0 && claim !== '')
export const server: Promise<FakeModelServer> = startFakeModelServer({ user: scriptedUser(['hi']), judge, latencyMs: 5 })
export const reply = fakeReply.slow(10, fakeReply.rateLimited(1))
// @ts-expect-error: a judge rule returns a boolean or a decision
judgeByRule(() => 'yes')
export const result: Promise<RunResult> = run({
  agent,
  scenarios: ['refund-*', { id: 'inline', script: ['hi'], checks: [{ contains: 'hi' }, { not_contains: 'rm -rf', fatal: true }] }],
  k: 2,
  models: { base_url: 'http://127.0.0.1:1/v1', user: 'u', judge: 'j' },
})
export const firstClaim = result.then((r: RunResult) => r.scenarios[0]?.claims[0]?.held ?? (r.passRate === null ? 0 : r.passRate))
export const typed = (error: unknown) => error instanceof InputError && error.exitCode === 2
// @ts-expect-error: k is a number
void run({ agent: 'support_bot', k: '3' })
`,
    )
    // skipLibCheck off, so the package's declarations are checked, and whatever they import must be
    // found; TypeScript's own lib files are left unchecked (skipDefaultLibCheck), which says nothing
    // about the package and was half of tsc's time.
    await writeFile(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', skipLibCheck: false, skipDefaultLibCheck: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')] },
        files: ['check.ts'],
      }),
    )
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: consumer }).catch((error: { stdout: string }) => ({ stdout: error.stdout, failed: true }))
    assert.ok(!('failed' in result), `tsc failed:\n${result.stdout}`)
  })
})
