import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as z from '../../base/shared/zod.ts'
import { fingerprint } from '../../base/shared/fingerprint.ts'
import { maskDeep, noMask, type Mask } from '../../base/shared/secrets.ts'

/**
 * A cache of convy-ci's own model calls (the simulated user and the judge), so a run can be repeated
 * for free. The key is everything that decides an answer: the model, the full request, the scenario
 * as played and the attempt number. The attempt number matters: with one entry shared by the k
 * attempts of a scenario, every repeat would get the first attempt's answers and the k attempts would
 * no longer be independent (promptfoo shipped exactly that bug).
 */
export const CACHE_MODES = ['off', 'read', 'write', 'readwrite'] as const
export type CacheMode = (typeof CACHE_MODES)[number]

export const CachedAnswerSchema = z.object({
  content: z.nullable(z.string()),
  refusal: z.nullable(z.string()),
  finishReason: z.nullable(z.string()),
  inputTokens: z.int().check(z.nonnegative()),
  outputTokens: z.int().check(z.nonnegative()),
})
export type CachedAnswer = z.infer<typeof CachedAnswerSchema>

export interface ModelCache {
  readonly mode: CacheMode
  get(key: string): Promise<CachedAnswer | undefined>
  set(key: string, answer: CachedAnswer): Promise<void>
}

/** What goes into a key; `request` is the body as convy-ci means it, before any server fallback. */
export interface CacheKeyParts {
  model: string
  request: unknown
  /** The scenario's fingerprint and the attempt number: see above. */
  scope: string
}

export function cacheKey(parts: CacheKeyParts): string {
  return fingerprint({ v: 1, ...parts })
}

const ENTRY_VERSION = 1

/**
 * One JSON file per entry under `dir` (`.convy/cache/` in a project), in folders named by the key's
 * first two characters. Writes are atomic, so parallel attempts and concurrent runs never see half an
 * entry; an unreadable entry is a miss, never an error.
 *
 * The action shares the cache with pull requests, forks included, through the Actions cache: nothing
 * secret may be in it. The dialogue is masked before it is sent (the key is a hash of the masked
 * request), and an answer is masked as it is written and as it is read (an entry written before).
 */
export function createFileCache(dir: string, mode: CacheMode, mask: Mask = noMask): ModelCache {
  const reads = mode === 'read' || mode === 'readwrite'
  const writes = mode === 'write' || mode === 'readwrite'
  const pathOf = (key: string) => join(dir, key.slice(0, 2), `${key}.json`)
  let prepared: Promise<void> | undefined
  const prepare = () => (prepared ??= writeIgnoreFile(dir))
  return {
    mode,
    async get(key) {
      if (!reads) return undefined
      try {
        const entry = JSON.parse(await readFile(pathOf(key), 'utf8')) as { version?: unknown; answer?: unknown }
        if (entry.version !== ENTRY_VERSION) return undefined
        const parsed = CachedAnswerSchema.safeParse(entry.answer)
        return parsed.success ? maskDeep(parsed.data, mask) : undefined
      } catch {
        return undefined
      }
    },
    async set(key, answer) {
      if (!writes) return
      await prepare()
      const file = pathOf(key)
      await mkdir(join(dir, key.slice(0, 2)), { recursive: true })
      const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`
      await writeFile(temporary, JSON.stringify({ version: ENTRY_VERSION, answer: maskDeep(answer, mask) }))
      await rename(temporary, file)
    },
  }
}

export const noCache: ModelCache = { mode: 'off', get: async () => undefined, set: async () => undefined }

/** The cache holds what models said about users' conversations: keep it out of git by default. */
async function writeIgnoreFile(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, '.gitignore'), '# convy-ci model cache: answers of the simulated user and the judge\n*\n', { flag: 'w' })
}
