// The GitHub Action's entry point comes with the action issue; until then the action says so plainly.
import { ExitCode } from '../shared/errors.ts'

process.stderr.write('::error::convy-ci: the GitHub Action is not part of this release yet; run `npx convy-ci run` in a step instead.\n')
process.exitCode = ExitCode.BadInput
