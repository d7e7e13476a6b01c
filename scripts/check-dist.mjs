// dist/ is what the action runs and what npm ships: it must be exactly a fresh build of src/.
import { execFileSync } from 'node:child_process'

execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' })
const changed = execFileSync('git', ['status', '--porcelain', '--', 'dist'], { encoding: 'utf8' }).trim()
if (changed) {
  console.error(`dist/ differs from a fresh build of src/; run \`npm run build\` and commit dist/:\n${changed}`)
  process.exit(1)
}
console.log('dist/ is a fresh build of src/')
