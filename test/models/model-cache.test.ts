import assert from 'node:assert/strict'
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { cacheKey, createFileCache, type CachedAnswer } from '../../src/adapters/model-client/model-cache.ts'

const answer: CachedAnswer = { content: 'hello', refusal: null, finishReason: 'stop', inputTokens: 12, outputTokens: 3 }
const request = { messages: [{ role: 'user', content: 'hi' }], temperature: 0 }

test('keys differ by attempt, scenario, model and request, and are stable otherwise', () => {
  const base = { model: 'judge', request, scope: 'scenario-fp#1' }
  assert.equal(cacheKey(base), cacheKey({ ...base, request: { temperature: 0, messages: [{ content: 'hi', role: 'user' }] } }))
  const others = [
    { ...base, scope: 'scenario-fp#2' },
    { ...base, scope: 'other-fp#1' },
    { ...base, model: 'user' },
    { ...base, request: { ...request, temperature: 1 } },
  ]
  assert.equal(new Set([base, ...others].map(cacheKey)).size, 5)
})

test('readwrite stores and finds an answer; an ignore file keeps the cache out of git', async () => {
  const dir = join(await mkdtemp(join(tmpdir(), 'convy-cache-')), '.convy', 'cache')
  const cache = createFileCache(dir, 'readwrite')
  const key = cacheKey({ model: 'm', request, scope: 's#1' })
  assert.equal(await cache.get(key), undefined)
  await cache.set(key, answer)
  assert.deepEqual(await cache.get(key), answer)
  assert.match(await readFile(join(dir, '.gitignore'), 'utf8'), /^\*$/m)
})

test('read only reads, write only writes, off does neither', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'convy-cache-'))
  const key = cacheKey({ model: 'm', request, scope: 's#1' })
  await createFileCache(dir, 'read').set(key, answer)
  assert.equal(await createFileCache(dir, 'readwrite').get(key), undefined, 'read mode wrote')
  await createFileCache(dir, 'write').set(key, answer)
  assert.equal(await createFileCache(dir, 'write').get(key), undefined, 'write mode read')
  assert.deepEqual(await createFileCache(dir, 'read').get(key), answer)
  assert.equal(await createFileCache(dir, 'off').get(key), undefined)
})

test('a damaged entry is a miss, not an error', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'convy-cache-'))
  const cache = createFileCache(dir, 'readwrite')
  const key = cacheKey({ model: 'm', request, scope: 's#1' })
  await cache.set(key, answer)
  const [folder] = (await readdir(dir)).filter((name) => name !== '.gitignore')
  await writeFile(join(dir, folder!, `${key}.json`), '{"version":1,"answer":{"content":')
  assert.equal(await cache.get(key), undefined)
})
