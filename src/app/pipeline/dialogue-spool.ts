import { once } from 'node:events'
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import type { Attempt } from '../../records/journal/records.ts'
import type { DialogueSlot } from '../../records/tally/run-tally.ts'
import type { DialogueMode } from '../../views/run/dialogue-blocks.ts'
import { dialogueMarkup, embedAttempt } from '../../views/run/dialogue-view.ts'

/**
 * The files behind a large page: a run's dialogues rendered by the views (views/run/dialogue-view.ts)
 * and spooled to a scratch file while its attempts are counted, then copied after the page's head,
 * so memory holds the counts but never the dialogues.
 */

/**
 * Dialogue blocks written to `file` as they come, a megabyte at a time so the disk does not set the
 * pace. The file is made with the first block: an inline page, or a folder that is not a run, makes none.
 */
export class DialogueSpool {
  private stream: WriteStream | null = null
  private pending: string[] = []
  private pendingLength = 0
  private blocks = 0

  constructor(
    readonly mode: DialogueMode,
    private readonly file: string,
  ) {}

  slot = async (attempt: Attempt): Promise<DialogueSlot> => {
    if (this.mode === 'inline') return { kind: 'inline', markup: dialogueMarkup(attempt.turns, attempt.tools).value }
    const { slot, block } = embedAttempt(`d-${this.blocks++}`, attempt)
    this.pending.push(block)
    this.pendingLength += block.length
    if (this.pendingLength >= 1 << 20) await this.flush()
    return slot
  }

  /** Writes every block so far to `page`, after what it already holds. */
  async copyTo(page: WriteStream): Promise<void> {
    await this.flush()
    if (!this.stream) return
    await closeStream(this.stream)
    for await (const chunk of createReadStream(this.file)) await writeChunk(page, chunk as Buffer)
  }

  async dispose(): Promise<void> {
    this.stream?.destroy()
    await rm(this.file, { force: true })
  }

  private async flush(): Promise<void> {
    const text = this.pending.join('')
    this.pending = []
    this.pendingLength = 0
    if (!text) return
    this.stream ??= createWriteStream(this.file)
    await writeChunk(this.stream, text)
  }
}

export async function writeChunk(stream: WriteStream, chunk: string | Buffer): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain')
}

export async function closeStream(stream: WriteStream): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    stream.once('error', reject)
    stream.end(resolve)
  })
}
