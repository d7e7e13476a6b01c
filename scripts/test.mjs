// `npm test`: the static checks, then every test file.
//
// The type check, the lint and the check that dist/ is a fresh build of src/ are independent and
// each mostly one thread, so they run at once (on two cores about 30 s instead of 50), each one's
// output printed whole when it ends. The tests start only when all three pass, as `a && b && c`
// did: the action's and the CLI's tests run dist/, which check-dist has just rebuilt.
import { Buffer } from 'node:buffer'
import { spawn } from 'node:child_process'

const STATIC_CHECKS = [
  ['typecheck', 'node_modules/typescript/bin/tsc', ['--noEmit']],
  ['lint', 'node_modules/eslint/bin/eslint.js', ['.']],
  ['check-dist', 'scripts/check-dist.mjs', []],
]

function runBuffered(name, script, args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    const output = []
    child.stdout.on('data', (chunk) => output.push(chunk))
    child.stderr.on('data', (chunk) => output.push(chunk))
    child.on('close', (code, signal) => {
      const text = Buffer.concat(output).toString('utf8').trimEnd()
      const status = code === 0 ? 'ok' : `failed (${signal ?? `exit ${code}`})`
      process.stdout.write(`\n> ${name}: ${status}\n${text ? `${text}\n` : ''}`)
      resolve(code === 0)
    })
  })
}

const passed = await Promise.all(STATIC_CHECKS.map(([name, script, args]) => runBuffered(name, script, args)))
if (passed.includes(false)) {
  console.error(`\n${STATIC_CHECKS.filter((_, i) => !passed[i]).map(([name]) => name).join(', ')} failed: the tests were not run`)
  process.exit(1)
}

const tests = spawn(process.execPath, ['scripts/run-tests.mjs', ...process.argv.slice(2)], { stdio: 'inherit' })
tests.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
