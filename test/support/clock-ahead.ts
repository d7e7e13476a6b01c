import { pathToFileURL } from 'node:url'

const PRELOAD = pathToFileURL(new URL('./clock-ahead.mjs', import.meta.url).pathname).href

/** Variables for a child process whose clock runs `hours` ahead of the machine's (clock-ahead.mjs). */
export function clockAhead(hours: number): Record<string, string> {
  return { NODE_OPTIONS: `--import=${PRELOAD}`, CONVY_TEST_CLOCK_AHEAD_MS: String(hours * 3_600_000) }
}
