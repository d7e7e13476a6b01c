import assert from 'node:assert/strict'
import { mkdtemp, readFile, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { UNZIP_LIMITS, unzip } from '../../src/adapters/github/unzip.ts'
import { zipOf } from '../fakes/zip.ts'

describe('unzip', () => {
  test('stored and deflated files, in folders, come out as they went in', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'convy-unzip-'))
    const attempts = Buffer.from('{"scenario":"a"}\n'.repeat(1000))
    const names = await unzip(zipOf([{ name: 'run.json', data: Buffer.from('{"id":"x"}') }, { name: 'deep/attempts.jsonl', data: attempts, deflate: true }]), dir)
    assert.deepEqual(names, ['run.json', 'deep/attempts.jsonl'])
    assert.equal(await readFile(join(dir, 'run.json'), 'utf8'), '{"id":"x"}')
    assert.deepEqual(await readFile(join(dir, 'deep/attempts.jsonl')), attempts)
  })

  test('a name outside the folder is refused before anything of it is written', async () => {
    for (const name of ['../escape.txt', 'a/../../escape.txt', '/etc/escape.txt', '..\\escape.txt']) {
      const dir = await mkdtemp(join(tmpdir(), 'convy-unzip-'))
      await assert.rejects(unzip(zipOf([{ name, data: Buffer.from('x') }]), join(dir, 'inside')), /outside its folder/, name)
      assert.deepEqual(await readdir(dir), [])
    }
  })

  test('entries that share their data (a small zip naming one gigabyte many times) are refused', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'convy-unzip-'))
    const one = zipOf([{ name: 'a.txt', data: Buffer.alloc(1024, 120), deflate: true }])
    // The same central entry twenty times over, each under its own name, all pointing at one local entry.
    const centralAt = one.readUInt32LE(one.length - 6)
    const central = one.subarray(centralAt, one.length - 22)
    const copies = Array.from({ length: 20 }, (_, i) => {
      const copy = Buffer.from(central)
      copy.write(String.fromCharCode(97 + i), 46)
      return copy
    })
    const end = Buffer.from(one.subarray(one.length - 22))
    end.writeUInt16LE(20, 8)
    end.writeUInt16LE(20, 10)
    end.writeUInt32LE(central.length * 20, 12)
    const zip = Buffer.concat([one.subarray(0, centralAt), ...copies, end])
    await assert.rejects(unzip(zip, dir), /entries overlap \(b\.txt\): refused as a zip bomb/)
    // Every entry is checked before any is written: not even the first, harmless one is left.
    assert.deepEqual(await readdir(dir), [])
  })

  test('an entry that inflates far beyond its size is refused before it is inflated', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'convy-unzip-'))
    const rss = process.memoryUsage().rss
    await assert.rejects(unzip(zipOf([{ name: 'zeros', data: Buffer.alloc(64 * 2 ** 20), deflate: 'runs' }]), dir), /zeros inflates \d+ times .*refused as a zip bomb/)
    assert.deepEqual(await readdir(dir), [])
    assert.ok(process.memoryUsage().rss - rss < 256 * 2 ** 20)
  })

  test('an entry that lies about its size cannot write more than it declares', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'convy-unzip-'))
    const zip = zipOf([{ name: 'liar', data: Buffer.alloc(100_000, 97), deflate: true }])
    const centralAt = zip.readUInt32LE(zip.length - 6)
    zip.writeUInt32LE(10, centralAt + 24)
    await assert.rejects(unzip(zip, dir), /liar inflates to more than the 10 bytes it declares/)
    assert.deepEqual(await readdir(dir), [])
  })

  test('too many entries, or too much in all, is refused', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'convy-unzip-'))
    const files = Array.from({ length: 5 }, (_, i) => ({ name: `f${i}`, data: Buffer.alloc(1000, 98), deflate: true }))
    await assert.rejects(unzip(zipOf(files), dir, { ...UNZIP_LIMITS, maxEntries: 4 }), /the zip has 5 entries; a run folder has at most 4/)
    await assert.rejects(unzip(zipOf(files), dir, { ...UNZIP_LIMITS, maxTotalBytes: 2500 }), /holds more than/)
    assert.ok((await readdir(dir)).length <= 2)
  })

  test('what is not a zip says so', async () => {
    await assert.rejects(unzip(Buffer.from('not a zip at all'), tmpdir()), /not a zip archive/)
  })
})
