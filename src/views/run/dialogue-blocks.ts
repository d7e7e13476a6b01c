import type { Attempt } from '../../records/journal/records.ts'
import type { DialogueSlot } from '../../records/tally/run-tally.ts'
import { dialogueMarkup, embedAttempt } from './dialogue-view.ts'

/**
 * Where a page's dialogues go while its attempts are counted: written out in their slots (inline),
 * or embedded as data blocks for the end of the page (lazy), which a large run spools to a file so
 * memory holds the counts but never the dialogues.
 */

/** 'inline': dialogues as HTML, readable with JavaScript off. 'lazy': embedded data the page draws. */
export type DialogueMode = 'inline' | 'lazy'

/** Up to this much attempts.jsonl, dialogues are written as HTML; past it the page would get slow. */
export const INLINE_DIALOGUES_MAX_BYTES = 3_000_000

/** Dialogue blocks kept in memory: for pages rendered from runs already in memory. */
export class DialogueBlocks {
  readonly blocks: string[] = []
  constructor(readonly mode: DialogueMode) {}

  slot = (attempt: Attempt): DialogueSlot => {
    if (this.mode === 'inline') return { kind: 'inline', markup: dialogueMarkup(attempt.turns, attempt.tools).value }
    const { slot, block } = embedAttempt(`d-${this.blocks.length}`, attempt)
    this.blocks.push(block)
    return slot
  }
}
