// Every schema of convy-ci is written with zod's functional API (zod/mini), imported from here.
//
// zod's method API (`z.string().min(1).optional()`) gives each schema some sixty bound methods as it
// is made; convy-ci makes about 600 schemas as its modules load, before a run's first request, and
// the full API is 150 KB of code to compile. The functional API checks the same things with the same
// issues, at a fraction of both costs (bench/runner.ts: the first request of a run, start-up CPU).
// It carries no messages of its own: English ones are set here, once, before any schema parses.
import { config, minLength, string } from 'zod/mini'
import en from 'zod/v4/locales/en.js'

config(en())

export * from 'zod/mini'

/** Text with at least one character: a name, a path, a model, a line. */
export const nonEmptyText = string().check(minLength(1))

/**
 * Options for a parse that runs once or a few hundred times in a process (convy.yml, the scenario
 * files, the action's inputs): zod compiles an object's fast path with `new Function` at its first
 * parse, which costs more than it saves until some thousands of parses (200 scenario files: about
 * 10 → 5 ms). The journal's attempts, read by the ten thousand, keep it. Issues carry their input
 * (for the messages that quote it).
 */
export const PARSE_FEW = { reportInput: true, jitless: true } as const
