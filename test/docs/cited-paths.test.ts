import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { ROOT } from './runnable.ts'

// Every file a comment, a folder's README or a page of docs/ names is in the tree (issue 35: comments
// cited a notes/ folder the repository does not have, READMEs named files that had moved). A path is
// found when a tracked file is it or ends with it, as comments name files from their layer
// (`tally/error-groups.ts`). Paths in a user's project (agents/, scenarios/, helpers/, .github/) and the
// placeholders x and y are the reader's, not ours.

const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean)
const cited = tracked.filter((file) => /^(src|docs|scripts|bench|test)\/.*\.(ts|md|mjs)$|^(README|CONTRIBUTING|SECURITY)\.md$/.test(file))
const PATH = /(?<![\w./-])((?:\.\.?\/)*(?:\.?[\w-][\w.-]*\/)+[\w.-]+\.(?:ts|mjs|md|json|yml|png))(?![\w/])/g
const USERS = /^(agents|scenarios|helpers|\.github)\/|(^|\/)[xy](\.test)?\.ts$/

/** The comments of a source file, or the whole of a page. */
function prose(file: string): string {
  const text = readFileSync(join(ROOT, file), 'utf8')
  return /\.(ts|mjs)$/.test(file) ? text.split('\n').filter((line) => /^\s*(\/\/|\*|\/\*)/.test(line)).join('\n') : text
}

test('every file path cited in a comment, a README or docs/ is in the tree', () => {
  assert.ok(cited.length > 300, `only ${cited.length} files read: git ls-files found the tree?`)
  const missing: string[] = []
  let paths = 0
  for (const file of cited) {
    for (const [, written] of prose(file).matchAll(PATH)) {
      const path = written!.replace(/^(\.\.?\/)+/, '')
      if (USERS.test(path)) continue
      paths++
      if (!tracked.some((t) => t === path || t.endsWith(`/${path}`))) missing.push(`${file}: ${written}`)
    }
  }
  assert.ok(paths > 200, `only ${paths} paths cited: the pattern finds them?`)
  assert.deepEqual(missing, [])
})
