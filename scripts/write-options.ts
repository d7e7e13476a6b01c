// `npm run options`: writes what the option table (src/entry/options/) makes for people — action.yml's
// inputs block and the reference tables of README.md, docs/action.md and docs/local.md — after a change to it.
// test/docs/options-reference.test.ts fails until this has been run.
import { readFile, writeFile } from 'node:fs/promises'
import { REFERENCE_FILES } from '../src/entry/options/reference.ts'

const root = new URL('../', import.meta.url)
for (const [file, make] of Object.entries(REFERENCE_FILES)) {
  const path = new URL(file, root)
  const before = await readFile(path, 'utf8')
  const after = make(before)
  if (after !== before) await writeFile(path, after)
  console.log(`${after === before ? 'unchanged' : 'written  '} ${file}`)
}
