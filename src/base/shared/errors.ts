/**
 * Exit codes are the contract with CI: 0 every attempt finished, 1 an attempt failed on an
 * agent or model error (or a gate failed), 2 bad input — nothing ran, 130 interrupted.
 */
/** Inconclusive (3): a gate that failed because evidence is missing (verdict/gate.ts), told apart from a Worse (1). */
export const ExitCode = { Ok: 0, Failed: 1, BadInput: 2, Inconclusive: 3, Interrupted: 130 } as const
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode]

/** Base of every error convy-ci raises on purpose. Carries the exit code the CLI should end with. */
export class ConvyError extends Error {
  readonly exitCode: ExitCode = ExitCode.Failed
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = new.target.name
  }
}

/** Something the user wrote or passed is wrong. Raised before anything runs. */
export class InputError extends ConvyError {
  override readonly exitCode: ExitCode = ExitCode.BadInput
}

/** A problem in one file, optionally at one line. The message starts with `file:line:` as compilers do. */
export class FileError extends InputError {
  readonly file: string
  readonly line: number | undefined
  constructor(file: string, line: number | undefined, detail: string, options?: ErrorOptions) {
    super(`${file}${line === undefined ? '' : `:${line}`}: ${detail}`, options)
    this.file = file
    this.line = line
  }
}

/** Several input problems found in one pass, so the user can fix them all at once. */
export class InputErrors extends InputError {
  readonly problems: readonly InputError[]
  constructor(problems: readonly InputError[]) {
    super(problems.map((p) => p.message).join('\n'))
    this.problems = problems
  }
}

/** Every problem found, as one error: a user fixing a file should not discover its mistakes one run at a time. */
export function allProblems(problems: readonly InputError[]): InputError {
  return problems.length === 1 ? problems[0]! : new InputErrors(problems)
}

/** A run that exists but cannot be resumed as asked (changed configuration, unknown id). */
export class ResumeRefused extends InputError {}

/** The run was stopped by SIGINT or SIGTERM; finished attempts are kept. */
export class Interrupted extends ConvyError {
  override readonly exitCode: ExitCode = ExitCode.Interrupted
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name
  if (typeof error === 'string') return error
  try {
    return JSON.stringify(error) ?? String(error)
  } catch {
    return String(error)
  }
}

export function toConvyError(error: unknown): ConvyError {
  return error instanceof ConvyError ? error : new ConvyError(errorMessage(error), { cause: error })
}

/**
 * The innermost cause of an error. fetch says only "fetch failed"; what happened (ECONNREFUSED, a DNS
 * failure, a reset) is at the end of its causes.
 */
export function rootCause(error: unknown): unknown {
  let deepest = error
  for (let depth = 0; depth < 10 && deepest instanceof Error && deepest.cause !== undefined; depth++) deepest = deepest.cause
  return deepest
}

/** The root cause as briefly as it can be named: its system code (ECONNREFUSED), else its message. */
export function rootCauseCode(error: unknown): string {
  const root = rootCause(error)
  // A system error's code names it (ECONNREFUSED); a DOMException's code is a number (a timeout's is
  // 23), which would tell a reader nothing: its message does.
  const code = (root as { code?: unknown } | undefined)?.code
  return typeof code === 'string' ? code : errorMessage(root)
}
