// Runs every *.test.ts under test/ (or those whose path contains one of the arguments) with node's
// own test runner, TypeScript through tsx.
import { spawn } from 'node:child_process'
import { findTests } from './test-files.mjs'

const files = findTests(process.argv.slice(2))
const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], { stdio: 'inherit' })
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
