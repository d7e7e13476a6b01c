import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { copyFile, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.ts'
import { describeStep, HANG_GUARD_MS, runActionStep } from './harness.ts'
import { pushStep } from './steps.ts'

// One loader for agent modules: the CLI on a laptop (esbuild installed next to it) and the action
// (its bundle alone, no node_modules anywhere) load a TypeScript agent the same way, and say the same
// thing when they cannot. Plain Node runs the bundles in child processes: this file runs on Node 20
// and again on Node 24 (.ci/run), where Node strips types itself.

const CLI_BUNDLE = fileURLToPath(new URL('../../dist/cli.js', import.meta.url))
const ACTION_BUNDLE = fileURLToPath(new URL('../../dist/action.js', import.meta.url))
const features = process.features as { typescript?: string | false }
const nodeStripsTypes = features.typescript === 'strip' || features.typescript === 'transform'

const FILES: Record<string, string> = {
  'convy.yml': `agents:
  custom: agents/custom.ts
  moods: agents/moods.ts
  plain: agents/plain.js
  missing: agents/missing.js
`,
  'scenarios/hello.yml': 'script: [hello]\nchecks: [{contains: hello}]\n',
  // Imports as an editor and esbuild resolve them: no extension, a folder, a .js name for a .ts file.
  'agents/custom.ts': `import { defineAgent } from 'convy-ci'
import { greet } from './helpers'
import { sign } from './lib'
import { punctuate } from './style/punctuate.js'
export const agent = defineAgent({
  conversation() {
    return { answer: (message: string) => ({ text: punctuate(greet(message)) + sign }) }
  },
})
`,
  'agents/helpers.ts': 'export const greet = (message: string): string => `hello, you said ${message}`\n',
  'agents/lib/index.ts': "export const sign: string = ' (custom)'\n",
  'agents/style/punctuate.ts': "export const punctuate = (text: string): string => text + '!'\n",
  'agents/moods.ts': `enum Mood {
  Cheerful = 'cheerful',
}
export const agent = { conversation: () => ({ answer: (message: string) => ({ text: \`\${Mood.Cheerful} hello: \${message}\` }) }) }
`,
  'agents/plain.js': "import { greet } from './plain-helpers'\nexport const agent = { conversation: () => ({ answer: (m) => ({ text: greet(m) }) }) }\n",
  'agents/plain-helpers.js': 'export const greet = (m) => `hello ${m}`\n',
  'agents/missing.js': "import { nothing } from './not-there'\nexport const agent = nothing\n",
}

const dirs: string[] = []
after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))))

async function project(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'convy-loader-'))
  dirs.push(dir)
  for (const [path, text] of Object.entries(FILES)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), text)
  }
  return dir
}

/** A bundle copied to a folder of its own, as the action runs it: no esbuild can be found from it. */
async function alone(bundle: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'convy-bundle-'))
  dirs.push(dir)
  const copy = join(dir, 'dist', bundle.endsWith('cli.js') ? 'cli.js' : 'action.js')
  await mkdir(dirname(copy), { recursive: true })
  await copyFile(bundle, copy)
  // The CLI shares its code with the library through dist/chunks/ (the action's bundle is one file).
  if (bundle.endsWith('cli.js')) await cp(join(dirname(bundle), 'chunks'), join(dirname(copy), 'chunks'), { recursive: true })
  return copy
}

function cli(bundle: string, cwd: string, agent: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const env = { PATH: process.env.PATH ?? '', HOME: cwd }
    execFile(process.execPath, [bundle, 'run', agent], { cwd, env, timeout: HANG_GUARD_MS }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr })
    })
  })
}

const ENUM_MESSAGE = /agents\/moods\.ts:1 uses an enum, which Node's type stripping cannot run: use a const object instead .*, or install esbuild in the project to compile it \(npm install --save-dev esbuild; in a workflow, run `npm ci` before the convy step\)/

describe(`agent modules on Node ${process.versions.node}${nodeStripsTypes ? ', which strips types' : ''}`, () => {
  let dir: string
  let withoutEsbuild: string
  before(async () => {
    dir = await project()
    withoutEsbuild = await alone(CLI_BUNDLE)
  })

  test('a TypeScript agent with extensionless, folder and .js imports runs with esbuild, and without it where Node strips types', async () => {
    const withEsbuild = await cli(CLI_BUNDLE, dir, 'custom')
    assert.equal(withEsbuild.code, 0, withEsbuild.stderr)
    assert.match(withEsbuild.stdout, /custom: pass rate 100%/)
    const alone = await cli(withoutEsbuild, dir, 'custom')
    if (nodeStripsTypes) {
      assert.equal(alone.code, 0, alone.stderr)
      assert.match(alone.stdout, /custom: pass rate 100%/)
    } else {
      assert.equal(alone.code, 2)
      assert.match(alone.stderr, /agents\/custom\.ts is TypeScript, but esbuild is not installed and this Node cannot run TypeScript itself\. Install esbuild/)
    }
  })

  test('an enum compiles with esbuild; without it, the message names the file, the line, why and what to change', async () => {
    const withEsbuild = await cli(CLI_BUNDLE, dir, 'moods')
    assert.equal(withEsbuild.code, 0, withEsbuild.stderr)
    const alone = await cli(withoutEsbuild, dir, 'moods')
    assert.equal(alone.code, 2)
    if (nodeStripsTypes) assert.match(alone.stderr, ENUM_MESSAGE)
    else assert.match(alone.stderr, /agents\/moods\.ts is TypeScript, but esbuild is not installed/)
    assert.doesNotMatch(alone.stderr, /\n\s+at /, 'no stack trace')
  })

  test('JavaScript is imported by Node on every version, with or without esbuild; a missing file is named with its importer', async () => {
    for (const bundle of [CLI_BUNDLE, withoutEsbuild]) {
      const plain = await cli(bundle, dir, 'plain')
      assert.equal(plain.code, 0, plain.stderr)
      const missing = await cli(bundle, dir, 'missing')
      assert.equal(missing.code, 2)
      assert.match(missing.stderr, /^error: agents\/missing\.js imports agents\/not-there, which is not there \(also looked for it with \.ts, \.mts, \.js, \.mjs and for a folder with an index file\)$/m)
    }
  })
})

describe('the action bundle alone (as GitHub runs it) loads the same TypeScript agent', () => {
  let fake: FakeGitHub
  before(async () => {
    fake = await startFakeGitHub()
  })
  after(() => fake.close())

  test(nodeStripsTypes ? 'it runs, as on a laptop' : 'this Node cannot strip types: it says what to do', async () => {
    const workspace = await project()
    const result = await runActionStep(fake, { ...pushStep(fake, workspace, { agent: 'custom' }), bundle: await alone(ACTION_BUNDLE) })
    if (nodeStripsTypes) {
      assert.equal(result.code, 0, describeStep(result))
      assert.equal(result.outputs['pass-rate'], '1')
    } else {
      assert.equal(result.code, 1, describeStep(result))
      assert.ok(result.annotations.some((a) => /agents\/custom\.ts is TypeScript, but esbuild is not installed/.test(a.message)), describeStep(result))
    }
    const enumStep = await runActionStep(fake, { ...pushStep(fake, workspace, { agent: 'moods' }, 'b'.repeat(40)), bundle: await alone(ACTION_BUNDLE) })
    assert.equal(enumStep.code, 1, describeStep(enumStep))
    if (nodeStripsTypes) assert.ok(enumStep.annotations.some((a) => ENUM_MESSAGE.test(a.message)), describeStep(enumStep))
  })
})
