/**
 * Exit codes are the contract with CI: 0 every attempt finished, 1 an attempt failed on an
 * agent or model error (or a gate failed), 2 bad input — nothing ran, 130 interrupted.
 */
/** Inconclusive (3): a gate that failed because evidence is missing (verdict/gate.ts), told apart from a Worse (1). */
export declare const ExitCode: {
    readonly Ok: 0;
    readonly Failed: 1;
    readonly BadInput: 2;
    readonly Inconclusive: 3;
    readonly Interrupted: 130;
};
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
/** Base of every error convy-ci raises on purpose. Carries the exit code the CLI should end with. */
export declare class ConvyError extends Error {
    readonly exitCode: ExitCode;
    constructor(message: string, options?: ErrorOptions);
}
/** Something the user wrote or passed is wrong. Raised before anything runs. */
export declare class InputError extends ConvyError {
    readonly exitCode: ExitCode;
}
/** A problem in one file, optionally at one line. The message starts with `file:line:` as compilers do. */
export declare class FileError extends InputError {
    readonly file: string;
    readonly line: number | undefined;
    constructor(file: string, line: number | undefined, detail: string, options?: ErrorOptions);
}
/** Several input problems found in one pass, so the user can fix them all at once. */
export declare class InputErrors extends InputError {
    readonly problems: readonly InputError[];
    constructor(problems: readonly InputError[]);
}
/** Every problem found, as one error: a user fixing a file should not discover its mistakes one run at a time. */
export declare function allProblems(problems: readonly InputError[]): InputError;
/** A run that exists but cannot be resumed as asked (changed configuration, unknown id). */
export declare class ResumeRefused extends InputError {
}
/** The run was stopped by SIGINT or SIGTERM; finished attempts are kept. */
export declare class Interrupted extends ConvyError {
    readonly exitCode: ExitCode;
}
export declare function errorMessage(error: unknown): string;
export declare function toConvyError(error: unknown): ConvyError;
/**
 * The innermost cause of an error. fetch says only "fetch failed"; what happened (ECONNREFUSED, a DNS
 * failure, a reset) is at the end of its causes.
 */
export declare function rootCause(error: unknown): unknown;
/** The root cause as briefly as it can be named: its system code (ECONNREFUSED), else its message. */
export declare function rootCauseCode(error: unknown): string;
