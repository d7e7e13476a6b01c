import { errorMessage } from '../../base/shared/errors.ts'
import { ModelError } from './model-call.ts'

/**
 * Reading what convy-ci's own models answer. Reasoning models served inline write their thoughts
 * before the answer (`<think>…</think>`); those thoughts are not the answer, and may mention
 * anything — `###STOP###`, a JSON example — so they go before anything else reads the text.
 */

/** Tags that open a block of the model's reasoning, as DeepSeek-R1, Qwen3 and others write them. */
const REASONING_TAGS = ['think', 'thinking', 'reasoning', 'reflection'] as const
const CLOSED_BLOCK = new RegExp(`<(${REASONING_TAGS.join('|')})\\b[^>]*>[\\s\\S]*?</\\1\\s*>`, 'gi')
const OPEN_AT_START = new RegExp(`^\\s*<(?:${REASONING_TAGS.join('|')})\\b[^>]*>`, 'i')
const CLOSE_TAG = new RegExp(`</(?:${REASONING_TAGS.join('|')})\\s*>`, 'i')

/**
 * The answer without its reasoning blocks. Closed blocks go wherever they are. A block opened at the
 * start and never closed (the answer was cut off mid-thought) leaves nothing. A closing tag with no
 * opening one is the chat template's doing (it put `<think>` in the prompt): everything up to it goes.
 */
export function stripReasoning(text: string): string {
  let answer = text.replace(CLOSED_BLOCK, '')
  if (OPEN_AT_START.test(answer)) return ''
  const close = CLOSE_TAG.exec(answer)
  if (close) answer = answer.slice(close.index + close[0].length)
  return answer.trim()
}

/**
 * The first balanced JSON object in `text` (braces inside strings do not count), or undefined. Models
 * wrap their object in prose or a ```json fence now and then; the object itself is what was asked for.
 */
export function firstJsonObject(text: string): string | undefined {
  const start = text.indexOf('{')
  if (start < 0) return undefined
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const char = text[i]
    if (inString) {
      if (char === '\\') i++
      else if (char === '"') inString = false
    } else if (char === '"') inString = true
    else if (char === '{') depth++
    else if (char === '}' && --depth === 0) return text.slice(start, i + 1)
  }
  return undefined
}

/**
 * The first JSON object in a model's answer (reasoning already stripped), parsed. Models in JSON
 * mode, or with no format at all, wrap the object in a ```json fence or in prose. An answer without
 * one is a bad_answer ModelError naming `what` asked and showing the start of what came back.
 */
export function answerJson(text: string, what: string): unknown {
  const object = firstJsonObject(text)
  if (object === undefined) throw new ModelError('bad_answer', `${what}: the answer holds no JSON object: ${preview(text)}`)
  try {
    return JSON.parse(object)
  } catch (error) {
    throw new ModelError('bad_answer', `${what}: the answer is not JSON (${errorMessage(error)}): ${preview(text)}`)
  }
}

/** The start of an answer, for an error message. */
export function preview(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}
