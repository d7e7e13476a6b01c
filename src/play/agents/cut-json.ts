import type { BodyReader } from '../../base/http/whole.ts'
import { cutMark } from './reply-limit.ts'

/**
 * Reads a JSON answer as it arrives, keeping at most `maxBytes` of each string in it (UTF-8, as
 * decoded): a longer string keeps its first `maxBytes` and gets the mark cutReply would give it
 * (the size it had in full), and the rest of it is counted, not kept. An agent answering 70 MiB in its
 * `reply` takes about `maxBytes` of memory, not the answer three times over (its bytes, its text, the
 * parsed value): 16 of them at `--parallel 16` took 706 MiB (issue 36).
 *
 * One pass over the bytes: a string is cut between two characters, never inside one nor inside an
 * escape (`\n`, `\u00e9`); keys and everything outside strings are kept as they came. What it keeps is still
 * bounded by the HTTP client's maxBodyBytes (an answer of a million short strings).
 */
const MAX_DEPTH = 1_000_000

export function cutJsonStrings(maxBytes: number): BodyReader {
  // Small at first (from Node's shared pool): most answers are a few hundred bytes.
  let out = Buffer.allocUnsafe(1024)
  let length = 0
  let inString = false
  /** 0: none; 1: after a backslash; 2–5: the hex digits of a \u escape still to come, plus one. */
  let escape = 0
  let hex = 0
  /** UTF-8 bytes of the current string, as decoded, all of it. */
  let size = 0
  let cutting = false
  /** Where the current character or escape starts in `out`: a cut goes back to it. */
  let unitStart = 0
  /** Open objects (1) and lists (0), innermost last; whether the next string is a key. */
  let stack = new Uint8Array(64)
  let depth = 0
  let expectKey = false
  let isKey = false

  const append = (bytes: Uint8Array) => {
    if (length + bytes.length > out.length) {
      const bigger = Buffer.allocUnsafe(Math.max(out.length * 2, length + bytes.length))
      out.copy(bigger, 0, 0, length)
      out = bigger
    }
    out.set(bytes, length)
    length += bytes.length
  }

  return {
    get size() {
      return length
    },
    push(chunk) {
      let from = 0
      /** A unit of `unitSize` decoded bytes, starting at `unitStart`, is complete at `at`. */
      const count = (unitSize: number, at: number) => {
        if (!cutting && !isKey && size + unitSize > maxBytes) {
          append(chunk.subarray(from, at))
          length = unitStart
          cutting = true
        }
        size += unitSize
      }
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i]!
        if (!inString) {
          if (byte === 0x22) {
            inString = true
            isKey = expectKey
            size = 0
          } else if (byte === 0x7b || byte === 0x5b) {
            if (depth === MAX_DEPTH) throw new Error(`the answer nests more than ${MAX_DEPTH.toLocaleString('en-US')} objects or lists deep`)
            if (depth === stack.length) stack = Uint8Array.from({ length: depth * 2 }, (_, k) => stack[k] ?? 0)
            stack[depth++] = byte === 0x7b ? 1 : 0
            expectKey = byte === 0x7b
          } else if (byte === 0x7d || byte === 0x5d) {
            if (depth > 0) depth--
            expectKey = false
          } else if (byte === 0x2c) {
            expectKey = depth > 0 && stack[depth - 1] === 1
          } else if (byte === 0x3a) {
            expectKey = false
          }
          continue
        }
        if (escape === 1) {
          if (byte === 0x75) {
            escape = 2
            hex = 0
          } else {
            escape = 0
            count(1, i + 1)
          }
          continue
        }
        if (escape > 1) {
          hex = hex * 16 + parseInt(String.fromCharCode(byte), 16)
          if (++escape === 6) {
            escape = 0
            // A surrogate is half of a 4-byte character.
            count(hex < 0x80 ? 1 : hex < 0x800 ? 2 : hex >= 0xd800 && hex <= 0xdfff ? 2 : 3, i + 1)
          }
          continue
        }
        if (byte === 0x22) {
          inString = false
          if (cutting) {
            cutting = false
            append(Buffer.from(JSON.stringify(cutMark(size, maxBytes)).slice(1, -1)))
            from = i
          }
          continue
        }
        // Continuation bytes belong to the character their lead byte counted.
        if ((byte & 0xc0) === 0x80) continue
        if (!cutting) unitStart = length + (i - from)
        if (byte === 0x5c) {
          escape = 1
          continue
        }
        count(byte < 0x80 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2, i)
      }
      if (!cutting) append(chunk.subarray(from))
    },
    end() {
      return out.subarray(0, length)
    },
  }
}
