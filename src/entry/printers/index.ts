import type { RunPrinters } from '../../app/pipeline/context.ts'
import { verboseWatcher } from './dialogue.ts'
import { createProgress } from './progress.ts'
import { formatSummary } from './summary.ts'

/**
 * A run shown on a terminal or in a job's log: the progress line or lines, then the summary table;
 * with --verbose, the dialogue as it is played.
 */
export const terminalPrinters: RunPrinters = { progress: createProgress, summary: formatSummary, dialogue: verboseWatcher }
