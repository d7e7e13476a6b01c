import { mkdir, stat, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { ExitCode, InputError } from '../../../base/shared/errors.ts'
import { readCommandArgs } from '../args.ts'
import type { CliContext } from '../context.ts'
import { INIT_FILES } from './init-templates.ts'

export async function initCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { positionals } = readCommandArgs('init', argv)
  if (positionals.length > 1) throw new InputError('convy-ci init: give at most one folder')
  const dir = resolve(ctx.cwd, positionals[0] ?? '.')
  // Never overwrite what a user wrote: refuse if any file we would write exists.
  const existing = []
  for (const name of Object.keys(INIT_FILES)) {
    if (await exists(join(dir, name))) existing.push(name)
  }
  if (existing.length) throw new InputError(`convy-ci init: ${relative(ctx.cwd, dir) || '.'} already has ${existing.join(', ')}; nothing was written`)
  for (const [name, content] of Object.entries(INIT_FILES)) {
    await mkdir(dirname(join(dir, name)), { recursive: true })
    await writeFile(join(dir, name), content)
  }
  await mkdir(join(dir, 'results'), { recursive: true })
  const shown = relative(ctx.cwd, dir) || '.'
  ctx.stdout.write(
    [
      `Created a convy-ci project in ${shown}:`,
      ...Object.keys(INIT_FILES).map((n) => `  ${n}`),
      '  results/                 (empty: each run makes a folder here)',
      '',
      'Next:',
      ...(shown === '.' ? [] : [`  cd ${shown}`]),
      '  npx convy-ci run bookshop --smoke      # plumbing check: the agent answers, no model is called',
      '  npx convy-ci run bookshop --scenarios order-status-scripted   # a scripted scenario, checked offline',
      '  cp .env.example .env                   # then set your model gateway',
      '  npx convy-ci run bookshop -k 3         # the simulated user and the judge, 3 attempts each',
      '',
    ].join('\n'),
  )
  return ExitCode.Ok
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path)
    return true
  } catch {
    return false
  }
}
