import { mkdir, writeFile } from 'node:fs/promises'
import { basename, dirname, extname, relative, resolve } from 'node:path'
import { stringify } from 'yaml'
import type { Check, Scenario } from '../../records/scenario/scenario.ts'
import { InputError } from '../../base/shared/errors.ts'

export interface SavedChat {
  /** As given, relative to where convy-ci runs. */
  file: string
  /** No claims or checks came with it: the file is a scenario only once some are added. */
  needsDecisions: boolean
}

/**
 * Writes a chat as a scenario file: your lines become its `script`; with `--scenario`, its checks,
 * tags and description come along, so the file runs as it is, free and repeatable. The judge's claims
 * are written as comments: kept, they would call the judge on every run of a script. An existing
 * file is never overwritten.
 */
export async function saveChat(cwd: string, path: string, chat: { agent: string; lines: readonly string[]; scenario: Scenario | undefined; now: Date }): Promise<SavedChat> {
  const file = resolve(cwd, /\.ya?ml$/i.test(path) ? path : `${path}.yml`)
  const id = basename(file, extname(file))
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id)) throw new InputError(`${path}: the file's name is the scenario's id: use letters, digits, ".", "_" and "-"`)
  const s = chat.scenario
  const body: Record<string, unknown> = {
    id,
    ...(s?.description !== undefined ? { description: s.description } : {}),
    script: [...chat.lines],
    ...(s && s.checks.length > 0 ? { checks: s.checks.map(checkEntry) } : {}),
    ...(s && s.tags.length > 0 ? { tags: s.tags } : {}),
  }
  const needsDecisions = !('judge' in body) && !('checks' in body)
  const header = [
    `# Saved from \`convy-ci chat ${chat.agent}\`${s ? ` on scenario ${s.id}` : ''}, ${chat.now.toISOString().slice(0, 10)}: your lines, played as a script.`,
    ...(needsDecisions ? ['# A scenario needs `judge:` claims or `checks:` — add them before running it.'] : []),
    ...(s && s.judge.length > 0
      ? ['# The judge\'s claims are left out, so that the script runs free and repeatable; to have the judge decide them too:', '# judge:', ...s.judge.map((claim) => `#   - ${JSON.stringify(claim)}`)]
      : []),
  ]
  await mkdir(dirname(file), { recursive: true })
  try {
    await writeFile(file, `${header.join('\n')}\n${stringify(body, { lineWidth: 0 })}`, { flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new InputError(`${relative(cwd, file)} exists already; choose another name`)
    throw error
  }
  return { file: relative(cwd, file), needsDecisions }
}

function checkEntry(check: Check): Record<string, unknown> {
  return { [check.kind]: check.value, ...('args' in check && check.args ? { args: check.args } : {}), ...('fatal' in check && check.fatal ? { fatal: true } : {}) }
}
