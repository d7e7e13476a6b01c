import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test } from 'node:test'
import { MASKED } from '../../src/base/shared/secrets.ts'
import { allText, makeProject, onlyRun, runInProcess } from '../cli/harness.ts'
import { ROOT } from './runnable.ts'

// docs/configuration.md's redact: example, run as written: what it says it masks is masked.
const page = await readFile(join(ROOT, 'docs/configuration.md'), 'utf8')
const example = /<!-- redact example[^\n]*-->\n```yaml\n([\s\S]*?)```/.exec(page)?.[1]

test("docs/configuration.md's redact: example masks the card numbers and e-mail addresses it names", async () => {
  assert.ok(example, 'the redact example block is in docs/configuration.md')
  const said = ['4111 1111 1111 1111', '4111-1111-1111-1111', 'Ann.Lee@Example.com']
  const project = await makeProject({
    'convy.yml': example,
    'scenarios/pay.yml': `script:\n${said.map((s) => `  - "I am ${s}"`).join('\n')}\nchecks:\n  - contains: "I am"\n`,
  })
  const result = await runInProcess(['run', 'echo'], { cwd: project })
  assert.equal(result.code, 0, result.stderr)
  const written = `${await allText(await onlyRun(project, 'echo'))}${result.stdout}${result.stderr}`
  for (const text of said) assert.ok(!written.includes(text), `${text} was written`)
  assert.ok(!/4111|Ann\.Lee/i.test(written))
  assert.ok(written.includes(`I am ${MASKED}`))
})
