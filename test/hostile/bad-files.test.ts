import assert from 'node:assert/strict'
import { mkdir, readdir, readFile, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { makeProject, runInProcess } from '../cli/harness.ts'

/**
 * A corpus of bad scenario files (test/fixtures/bad-files, each saying on its first line what it
 * expects) and generated ones (sizes, file names, links). Every one: exit 2 before anything runs, the
 * file and line in the message, and nothing written anywhere.
 */
const CORPUS = join(import.meta.dirname, '..', 'fixtures', 'bad-files')
const GOOD = 'script: [hello]\nchecks:\n  - contains: hello\n'

async function listing(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).sort()
}

async function runOn(files: Record<string, string>, prepare?: (dir: string) => Promise<void>) {
  const dir = await makeProject({ 'convy.yml': 'models: {}\n', 'scenarios/ok.yml': GOOD, ...files })
  await prepare?.(dir)
  const before = await listing(dir)
  const result = await runInProcess(['run', 'echo', '--smoke'], { cwd: dir })
  return { ...result, dir, written: (await listing(dir)).filter((f) => !before.includes(f)) }
}

describe('the corpus of bad scenario files', async () => {
  const names = (await readdir(CORPUS)).filter((n) => n.endsWith('.yml')).sort()
  test('holds at least a dozen files', () => assert.ok(names.length >= 12, `${names.length}`))
  for (const name of names) {
    test(name, async () => {
      const text = await readFile(join(CORPUS, name), 'utf8')
      const [, line, message] = /^# expect: line (\d+), (".*")$/m.exec(text)!
      const result = await runOn({ [`scenarios/${name}`]: text })
      assert.equal(result.code, 2, result.stderr)
      assert.ok(result.stderr.includes(`scenarios/${name}:${line}: `), result.stderr)
      assert.ok(result.stderr.includes(JSON.parse(message!) as string), result.stderr)
      assert.deepEqual(result.written, [])
    })
  }
})

describe('generated bad input', () => {
  test('a 50 MB scenario file is refused by its size, without reading it', async () => {
    const rss = process.memoryUsage().rss
    const result = await runOn({ 'scenarios/huge.yml': `user: hi\njudge: [x]\n# ${'x'.repeat(50 * 2 ** 20)}\n` })
    assert.equal(result.code, 2)
    assert.match(result.stderr, /scenarios\/huge\.yml:1: 50\.0 MiB; a scenario file may be at most 1 MiB/)
    assert.ok(process.memoryUsage().rss - rss < 400 * 2 ** 20)
    assert.deepEqual(result.written, [])
  })

  test('a 200,000-line script is refused', async () => {
    const result = await runOn({ 'scenarios/long.yml': `script:\n${'  - a\n'.repeat(200_000)}checks:\n  - contains: a\n` })
    assert.equal(result.code, 2)
    assert.match(result.stderr, /scenarios\/long\.yml:1: /)
  })

  for (const [label, base, shown] of [
    ['markup', '<img src=x onerror=alert(1)>', '<img src=x onerror=alert(1)>'],
    ['a right-to-left override', 'evil\u202Egpj.exe', 'evil\\u202egpj.exe'],
    ['a bell', 'bell\u0007', 'bell\\u0007'],
    ['a newline', 'two\nlines', 'two\\nlines'],
    ['a dot', '.', '.'],
  ] as const) {
    test(`an id taken from a file name with ${label} follows the id rule`, async () => {
      const result = await runOn({ [`scenarios/${base}.yml`]: GOOD })
      assert.equal(result.code, 2, result.stderr)
      assert.ok(result.stderr.includes(`scenarios/${shown}.yml:1: the file name gives the id "${shown}", which is not a valid id`), result.stderr)
      assert.ok(!result.stderr.includes('\u0007') && !result.stderr.includes('\u202E'))
      assert.deepEqual(result.written.filter((f) => !f.startsWith('results')), [])
    })
  }

  test('a symlinked scenario file is played; a link to a folder is named in a warning', async () => {
    const result = await runOn({ 'elsewhere/linked.yml': GOOD.replace('hello', 'linked') }, async (dir) => {
      await mkdir(join(dir, 'folder'))
      await symlink(join(dir, 'elsewhere', 'linked.yml'), join(dir, 'scenarios', 'linked.yml'))
      await symlink(join(dir, 'folder'), join(dir, 'scenarios', 'folder.yml'))
      await symlink(join(dir, 'nowhere.yml'), join(dir, 'scenarios', 'broken.yml'))
    })
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stderr, /warning: .*scenarios\/folder\.yml: a symbolic link to a folder, skipped/)
    assert.match(result.stderr, /warning: .*scenarios\/broken\.yml: a symbolic link to nothing \(broken\), skipped/)
    assert.match(result.stdout, /linked/)
  })

  test('convy.yml with an alias bomb names the file and line', async () => {
    const bomb = await readFile(join(CORPUS, 'alias-bomb.yml'), 'utf8')
    const dir = await makeProject({ 'convy.yml': bomb.replace(/^(user|judge):.*$/gm, ''), 'scenarios/ok.yml': GOOD })
    const result = await runInProcess(['run', 'echo', '--smoke'], { cwd: dir })
    assert.equal(result.code, 2)
    assert.match(result.stderr, /convy\.yml:3: its aliases \(\*name\) expand too far/)
  })
})
