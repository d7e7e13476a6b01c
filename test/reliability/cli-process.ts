import { spawn, type ChildProcess } from 'node:child_process'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The bundled CLI (dist/cli.js, `npm run build` first) as a real child process, so a test can kill
 * it with SIGKILL at any moment, as the kernel's OOM killer or a cancelled CI job would.
 */
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url))

export interface CliProcess {
  child: ChildProcess
  /** Resolves when it has ended: its exit code, or the signal that ended it. */
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>
}

export function startCli(argv: string[], cwd: string, env: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, [CLI, ...argv], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CI: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (d: Buffer) => (stdout += d))
  child.stderr!.on('data', (d: Buffer) => (stderr += d))
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((done) =>
    child.on('close', (code, signal) => done({ code, signal, stdout, stderr })),
  )
  return { child, ended }
}

export async function runCliToEnd(argv: string[], cwd: string, env: Record<string, string>) {
  return startCli(argv, cwd, env).ended
}

/** The run folders under results/<agent>/. */
export async function runFolders(projectDir: string, agent: string): Promise<string[]> {
  try {
    return (await readdir(join(projectDir, 'results', agent))).map((name) => join(projectDir, 'results', agent, name))
  } catch {
    return []
  }
}

/** Complete lines of attempts.jsonl (those ending in a newline): what a reader can count on. */
export async function completeLines(runDir: string): Promise<number> {
  try {
    const text = await readFile(join(runDir, 'attempts.jsonl'), 'utf8')
    return text.split('\n').length - 1
  } catch {
    return 0
  }
}

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms))
