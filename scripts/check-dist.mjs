// dist/ is what the action runs and what npm ships: it must be exactly a fresh build of src/.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' })
const changed = execFileSync('git', ['status', '--porcelain', '--', 'dist'], { encoding: 'utf8' }).trim()
if (changed) {
  console.error(`dist/ differs from a fresh build of src/; run \`npm run build\` and commit dist/:\n${changed}`)
  process.exit(1)
}
// The bundles drop the licence comments of what they hold: dist/licenses.txt carries every bundled
// package's licence instead, and says so of a package that ships none.
const licenses = readFileSync('dist/licenses.txt', 'utf8')
const [head, ...entries] = licenses.split(/\n-{78}\n/)
const count = Number(/^(\d+) packages/m.exec(head)?.[1])
const empty = entries.filter((entry) => entry.trim().split('\n').length < 3)
if (!(count > 0) || entries.length !== count || empty.length > 0) {
  console.error(`dist/licenses.txt: ${entries.length} entries for ${count} packages; without a licence text: ${empty.map((entry) => entry.trim().split('\n')[0]).join(', ') || 'none'}`)
  process.exit(1)
}
console.log(`dist/ is a fresh build of src/; dist/licenses.txt holds the licences of ${count} bundled packages`)
