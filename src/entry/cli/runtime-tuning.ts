import * as nodeModule from 'node:module'
import { setFlagsFromString } from 'node:v8'

// Imported first by main.ts, before the command's code is loaded.
//
// A run is short and busy: on Node 20 (V8 11), TurboFan optimised hundreds of functions that were hot
// for a second, on background threads that used about a fifth of the process's CPU (300 of 1,450
// CPU-ms at 200 conversations, bench/runner.ts; --no-opt alone used less in all). Four times V8's
// default interrupt budget leaves the short-lived hot code to the baseline tiers and still optimises
// what stays hot: 1,450 → 1,150 CPU-ms for that run, while a 10,000-attempt report takes 1.55 → 1.70 s
// (bench:report). Node 22 and 24 (V8 12 and 13) tier up by other rules and measured no gain, so
// they keep their defaults; the flag does not exist there.
if (process.versions.v8.startsWith('11.')) setFlagsFromString('--interrupt-budget=270336')

// Node 22.1 and later keep the compiled code of the modules loaded after this in a cache (in the
// system's temporary folder, or NODE_COMPILE_CACHE), as Node's documentation advises command-line
// tools to: a command's code (the run's is about 0.7 MB) is compiled once, not on every start.
// Node 20 has no such cache.
const withCache = nodeModule as { enableCompileCache?: () => unknown }
withCache.enableCompileCache?.()
