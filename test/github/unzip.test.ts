import assert from 'node:assert/strict'
import { mkdtemp, readFile, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { crc32, deflateRawSync } from 'node:zlib'
import { unzip } from '../../src/github/unzip.ts'

/** A zip as the format describes it: local headers and data, then the central directory. */
function zipOf(entries: { name: string; data: Buffer; deflate?: boolean }[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const body = entry.deflate ? deflateRawSync(entry.data) : entry.data
    const name = Buffer.from(entry.name)
    const fields = (header: Buffer, at: number) => {
      header.writeUInt16LE(entry.deflate ? 8 : 0, at)
      header.writeUInt32LE(crc32(entry.data), at + 6)
      header.writeUInt32LE(body.length, at + 10)
      header.writeUInt32LE(entry.data.length, at + 14)
      header.writeUInt16LE(name.length, at + 18)
    }
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    fields(local, 8)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    fields(central, 10)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, body)
    centrals.push(central, name)
    offset += local.length + name.length + body.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

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

  test('what is not a zip says so', async () => {
    await assert.rejects(unzip(Buffer.from('not a zip at all'), tmpdir()), /not a zip archive/)
  })
})
