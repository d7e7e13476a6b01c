import assert from 'node:assert/strict'
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, describe, test } from 'node:test'
import { register as registerTsx } from 'tsx/esm/api'
import { loadModuleAgent, type ModuleAgentOptions } from '../../src/play/agents/module/module-agent.ts'
import * as runningApi from '../../src/index.ts'
import { InputError } from '../../src/base/shared/errors.ts'
import { talk } from './talk.ts'

const fixtures = new URL('../fixtures/agents/', import.meta.url)
const projects: string[] = []
after(() => Promise.all(projects.map((dir) => rm(dir, { recursive: true, force: true }))))

/**
 * A throwaway project with the fixture agents in agents/ and any extra files given. Its package.json
 * says "type": "module" because one test runs under tsx, which would otherwise turn a .js module
 * into CommonJS and resolve its imports itself (plain Node detects ES module syntax on its own).
 */
async function project(extra: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'convy-agents-'))
  projects.push(dir)
  await cp(fixtures, join(dir, 'agents'), { recursive: true })
  for (const [path, text] of Object.entries({ 'package.json': '{ "type": "module" }\n', ...extra })) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), text)
  }
  return dir
}

const withEsbuild = (projectDir: string): ModuleAgentOptions => ({ projectDir, canStripTypes: false })
const withoutEsbuild = (projectDir: string): ModuleAgentOptions => ({ projectDir, canStripTypes: false, loadEsbuild: async () => null })

function seenApi(): Record<string, unknown> | undefined {
  return (globalThis as { convyFixtureSeen?: Record<string, unknown> }).convyFixtureSeen
}

describe('module agents compiled by esbuild', () => {
  test("a TypeScript module runs, and its import of 'convy-ci' is the running convy-ci", async () => {
    const dir = await project()
    const loaded = await loadModuleAgent('agents/support-bot.ts', { ...withEsbuild(dir), buildName: 'support' })
    assert.equal(loaded.loadedBy, 'esbuild')
    assert.equal(loaded.agent.version, 'support-bot 1.2')
    const answers = await talk(loaded.agent, ['hi', 'bye'], { session: 's-9' })
    assert.deepEqual(answers, [
      { text: 'turn 1 (s-9): hi', usage: { input: 2, output: 1 } },
      { text: 'turn 2 (s-9): bye', usage: { input: 3, output: 2 } },
    ])
    assert.equal(seenApi()?.defineAgent, runningApi.defineAgent)
    assert.equal(seenApi()?.postJson, runningApi.postJson)
    assert.equal(seenApi()?.version, runningApi.version)
    const bundle = await readFile(join(dir, '.convy', 'build', 'support.mjs'), 'utf8')
    assert.doesNotMatch(bundle, /from ["']convy-ci["']/)
  })

  test('an enum, a namespace and parameter properties compile', async () => {
    const loaded = await loadModuleAgent('agents/moods.ts', withEsbuild(await project()))
    const [answer] = await talk(loaded.agent, ['hello'])
    assert.equal(answer?.text, 'mood: cheerful — hello')
  })

  test("the project's packages stay imports, resolved from the project's node_modules", async () => {
    const dir = await project({
      'node_modules/shop-data/package.json': JSON.stringify({ name: 'shop-data', type: 'module', exports: './index.js' }),
      'node_modules/shop-data/index.js': 'export const catalog = ["kettle", "toaster", "mug"]\n',
    })
    const loaded = await loadModuleAgent('agents/uses-package.ts', { ...withEsbuild(dir), buildName: 'uses-package' })
    const [answer] = await talk(loaded.agent, ['hi'])
    assert.equal(answer?.text, '3 products; you said hi')
    assert.match(await readFile(join(dir, '.convy', 'build', 'uses-package.mjs'), 'utf8'), /from "shop-data"/)
  })

  test('a changed module is rebuilt and reloaded; so is a change in a file it imports, and the fingerprint follows', async () => {
    const dir = await project()
    const first = await loadModuleAgent('agents/support-bot.ts', withEsbuild(dir))
    const again = await loadModuleAgent('agents/support-bot.ts', withEsbuild(dir))
    assert.equal(again.fingerprint, first.fingerprint)
    await writeFile(join(dir, 'agents/lib/greeting.ts'), 'export const greeting = (turn: number): string => `round ${turn}`\n')
    const changed = await loadModuleAgent('agents/support-bot.ts', withEsbuild(dir))
    assert.notEqual(changed.fingerprint, first.fingerprint)
    const [answer] = await talk(changed.agent, ['hi'], { session: 'x' })
    assert.equal(answer?.text, 'round 1 (x): hi')
  })

  test('import.meta.url is the location of each source file, not of the bundle', async () => {
    const loaded = await loadModuleAgent('agents/prompted.ts', withEsbuild(await project()))
    const [answer] = await talk(loaded.agent, ['hi'])
    assert.equal(answer?.text, 'You are the prompt next to lib/prompt.ts. | import.meta.url is mentioned in this string, which must stay as written | hi')
  })

  test('a syntax error names the file and line', async () => {
    const dir = await project({ 'agents/broken.ts': 'export const agent = {\n  conversation() {\n    return { answer( }\n  },\n}\n' })
    await assert.rejects(loadModuleAgent('agents/broken.ts', withEsbuild(dir)), (error: Error) => {
      assert.ok(error instanceof InputError)
      assert.equal(error.exitCode, 2)
      assert.match(error.message, /^agents\/broken\.ts:3: column \d+: /)
      return true
    })
  })
})

describe('module agents imported by Node itself (no esbuild, as in the action)', () => {
  test("a JavaScript module runs, and its import of 'convy-ci' is the running convy-ci", async () => {
    const loaded = await loadModuleAgent('agents/plain.js', withoutEsbuild(await project()))
    assert.equal(loaded.loadedBy, 'node')
    const closedBefore = (globalThis as { convyFixtureClosed?: number }).convyFixtureClosed ?? 0
    const [answer] = await talk(loaded.agent, ['hi'])
    assert.deepEqual(answer, { text: 'plain: hi' })
    assert.equal((globalThis as { convyFixtureClosed?: number }).convyFixtureClosed, closedBefore + 1)
    assert.equal(seenApi()?.defineAgent, runningApi.defineAgent)
    assert.equal(seenApi()?.version, runningApi.version)
  })

  test('a changed module is reloaded', async () => {
    const dir = await project({ 'agents/counter.js': 'export const agent = { conversation: () => ({ answer: () => ({ text: "v1" }) }) }\n' })
    const first = await loadModuleAgent('agents/counter.js', withoutEsbuild(dir))
    await writeFile(join(dir, 'agents/counter.js'), 'export const agent = { conversation: () => ({ answer: () => ({ text: "v2" }) }) }\n')
    const second = await loadModuleAgent('agents/counter.js', withoutEsbuild(dir))
    assert.deepEqual(await talk(first.agent, ['x']), [{ text: 'v1' }])
    assert.deepEqual(await talk(second.agent, ['x']), [{ text: 'v2' }])
  })

  test('a module has the same fingerprint whichever way it was loaded, the files it imports included', async () => {
    const dir = await project({ 'agents/solo.ts': 'export const agent = { conversation: () => ({ answer: (m: string) => ({ text: m }) }) }\n' })
    // Node ≥ 22.18 imports it itself; here tsx stands in for its type stripping, for this test only
    // (the test files run as JavaScript, without tsx).
    const unregisterTsx = registerTsx()
    try {
      for (const file of ['agents/solo.ts', 'agents/support-bot.ts']) {
        const bundled = await loadModuleAgent(file, withEsbuild(dir))
        const imported = await loadModuleAgent(file, { ...withoutEsbuild(dir), canStripTypes: true })
        assert.deepEqual([bundled.loadedBy, imported.loadedBy], ['esbuild', 'node'])
        assert.equal(imported.fingerprint, bundled.fingerprint, file)
      }
      const before = (await loadModuleAgent('agents/support-bot.ts', { ...withoutEsbuild(dir), canStripTypes: true })).fingerprint
      await writeFile(join(dir, 'agents/lib/greeting.ts'), 'export const greeting = (turn: number): string => `round ${turn}`\n')
      assert.notEqual((await loadModuleAgent('agents/support-bot.ts', { ...withoutEsbuild(dir), canStripTypes: true })).fingerprint, before)
    } finally {
      await unregisterTsx()
    }
  })

  test('JavaScript is imported by Node even when esbuild is there: the loader is the one the action has', async () => {
    const loaded = await loadModuleAgent('agents/plain.js', withEsbuild(await project()))
    assert.equal(loaded.loadedBy, 'node')
  })

  test('an esbuild that is installed but cannot run is passed over, and named if Node cannot do without it', async () => {
    const dir = await project()
    const broken = { projectDir: dir, canStripTypes: false, loadEsbuild: async () => ({ build: () => Promise.reject(new Error('The package "@esbuild/linux-x64" could not be found')) }) }
    const loaded = await loadModuleAgent('agents/plain.js', broken)
    assert.equal(loaded.loadedBy, 'node')
    await assert.rejects(loadModuleAgent('agents/support-bot.ts', broken), /is TypeScript, but esbuild failed \(The package "@esbuild\/linux-x64" could not be found\) and this Node cannot/)
  })

  test('TypeScript on a Node that cannot strip types says what to install', async () => {
    await assert.rejects(loadModuleAgent('agents/support-bot.ts', withoutEsbuild(await project())), (error: Error) => {
      assert.ok(error instanceof InputError)
      assert.match(error.message, /^agents\/support-bot\.ts is TypeScript, but esbuild is not installed and this Node cannot run TypeScript itself\. Install esbuild/)
      return true
    })
  })
})

describe('the export is checked when the module loads', () => {
  test('a module without `agent` lists what it does export', async () => {
    const dir = await project()
    for (const options of [withEsbuild(dir), withoutEsbuild(dir)]) {
      // Without esbuild Node imports the module itself: JavaScript, the fixture without its types.
      const file = options.loadEsbuild ? 'agents/no-agent.js' : 'agents/no-agent.ts'
      if (file.endsWith('.js')) await writeFile(join(dir, file), (await readFile(join(dir, 'agents/no-agent.ts'), 'utf8')).replace('bar(): number', 'bar()'))
      // The loader may be given an absolute path; the message still names the file as the user wrote it.
      await assert.rejects(loadModuleAgent(join(dir, file), options), (error: Error) => {
        assert.ok(error instanceof InputError)
        assert.equal(error.message, `${file} does not export \`agent\` (it exports: bar, foo)`)
        return true
      })
    }
  })

  test('a default export gets a hint; an `agent` without conversation() is named as such', async () => {
    const dir = await project({
      'agents/default.js': 'export default { conversation() {} }\n',
      'agents/shapeless.js': 'export const agent = { answer() {} }\n',
    })
    await assert.rejects(loadModuleAgent('agents/default.js', withEsbuild(dir)), /does not export `agent` \(it exports: default\); write `export const agent = …` instead/)
    await assert.rejects(loadModuleAgent('agents/shapeless.js', withEsbuild(dir)), /^InputError: agents\/shapeless\.js exports `agent`, but it is an object with keys answer without a conversation\(\) method$/)
  })

  test('a module that throws while loading, a missing file and a wrong extension are input errors', async () => {
    const dir = await project({ 'agents/throws.js': 'throw new Error("no BOT_URL configured")\n', 'agents/agent.py': '' })
    await assert.rejects(loadModuleAgent('agents/throws.js', withEsbuild(dir)), { name: 'InputError', message: 'agents/throws.js could not be loaded: no BOT_URL configured' })
    await assert.rejects(loadModuleAgent('agents/missing.ts', withEsbuild(dir)), /^InputError: agents\/missing\.ts: no such file/)
    await assert.rejects(loadModuleAgent('agents/agent.py', withEsbuild(dir)), /must be a \.ts, \.mts, \.js, \.mjs file/)
  })

  test('what conversation() and answer() return is checked on every turn', async () => {
    const dir = await project({
      'agents/no-answer.js': 'export const agent = { conversation: () => ({ reply() {} }) }\n',
      'agents/string-answer.js': 'export const agent = { conversation: () => ({ answer: (m) => m }) }\n',
      'agents/bad-usage.js': 'export const agent = { conversation: () => ({ answer: () => ({ text: "ok", usage: { input: "12" } }) }) }\n',
    })
    const turn = async (file: string) => talk((await loadModuleAgent(file, withEsbuild(dir))).agent, ['hello'])
    await assert.rejects(turn('agents/no-answer.js'), /^Error: agents\/no-answer\.js: agent\.conversation\(\) must return an object with an answer\(\) method, but returned an object with keys reply$/)
    await assert.rejects(turn('agents/string-answer.js'), /answer\(\) must return \{ text: string \} or \{ messages: string\[\] \}, .* but returned a string \("hello"\)$/)
    await assert.rejects(turn('agents/bad-usage.js'), /but its usage is \{"input":"12"\}$/)
  })
})
