import assert from 'node:assert/strict'
import { execFile, type ChildProcess } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { after, before, describe, test } from 'node:test'
import { startExampleBot } from '../support/example-bot.ts'

// The tested examples of docs/library.md, "From your test runner", run as a user runs them against
// the built package (`import … from 'convy-ci'` is dist/index.js): the Vitest example, and a node:test
// file that fails on purpose, whose output docs/library.md shows. (The node:test example that passes
// runs in run-api.test.ts.)

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const TESTS = join(ROOT, 'scenarios-example', 'tests')

/** Without NODE_TEST_CONTEXT, which would make a child report to this runner instead of printing. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { NODE_TEST_CONTEXT: _inherited, ...env } = process.env
  return { ...env, ...extra }
}

function play(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, output: `${stdout}${stderr}` })
    })
  })
}

describe("docs/library.md's examples, against the built package", () => {
  let bot: { url: string; process: ChildProcess }
  before(async () => {
    bot = await startExampleBot()
  })
  after(() => bot.process.kill())

  test('the Vitest example passes under Vitest', async () => {
    const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs')
    const { code, output } = await play([vitest, 'run', 'scenarios-example/tests/support-bot.spec.mjs', '--reporter=verbose'], childEnv({ SUPPORT_BOT_URL: bot.url, NO_COLOR: '1' }))
    assert.equal(code, 0, output)
    assert.match(output, /✓ .*order questions pass in every attempt/)
    assert.match(output, /Tests {2}\d+ passed/)
  })

  test('a failing scenario prints its dialogue; docs/library.md shows that output', async () => {
    const { code, output } = await play(['--test', '--test-reporter=spec', join(TESTS, 'failing-on-purpose.mjs')], childEnv({ NO_COLOR: '1' }))
    assert.equal(code, 1, output)
    // The assertion's message is what the example prints: from the first line of the failed
    // attempt to the last line of its dialogue.
    const message = /AssertionError \[ERR_ASSERTION\]: (tracking-link #1:[\s\S]*?)\n\s*\+ actual - expected/.exec(output)?.[1]
    assert.ok(message, output)
    const lines = message.split('\n').map((l) => l.trim())
    assert.deepEqual(lines.slice(0, 2), ['tracking-link #1: failed, ended by user_stop', '✗ contains tracking: none of the 2 answers contains it'])
    assert.ok(lines.includes('user: It is 48213'), message)

    const docs = await readFile(join(ROOT, 'docs', 'library.md'), 'utf8')
    const shown = /<!-- output of scenarios-example\/tests\/failing-on-purpose\.mjs -->\n```\n([\s\S]*?)```/.exec(docs)?.[1]
    assert.ok(shown, 'docs/library.md shows no output of failing-on-purpose.mjs')
    assert.deepEqual(shown.trimEnd().split('\n').map((l) => l.trim()), lines)
    // And the example's code, as docs/library.md shows it, is the file that ran.
    const code_ = /<!-- scenarios-example\/tests\/failing-on-purpose\.mjs -->\n```js\n([\s\S]*?)```/.exec(docs)?.[1]
    assert.equal(code_, await readFile(join(TESTS, 'failing-on-purpose.mjs'), 'utf8'))
  })
})
