import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, isAbsolute, join, normalize, sep } from 'node:path'
import { inflateRawSync } from 'node:zlib'

/**
 * Unpacks a zip held in memory — an artifact of the size of a run folder — into dir. Entries are
 * read from the central directory (sizes there are right even when the zip was streamed), stored or
 * deflated. A name that would land outside dir is refused: the zip may come from anyone.
 */
const EOCD = 0x06054b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50

/**
 * A run folder is a few files of text. These limits refuse a zip bomb before it is written: too many
 * entries, too much data in all, an entry that inflates far beyond its compressed size, or entries
 * that share their compressed data (how a small zip names the same gigabyte many times).
 */
export interface UnzipLimits {
  maxEntries: number
  maxTotalBytes: number
  /** Uncompressed size over compressed size, for entries over 1 MiB (text compresses 5–20 times). */
  maxRatio: number
}

export const UNZIP_LIMITS: UnzipLimits = { maxEntries: 10_000, maxTotalBytes: 512 * 2 ** 20, maxRatio: 200 }

const RATIO_FROM_BYTES = 2 ** 20

export async function unzip(zip: Buffer, dir: string, limits: UnzipLimits = UNZIP_LIMITS): Promise<string[]> {
  const entries = readEntries(zip, limits)
  // Every entry is checked before anything is written, and written to a folder of its own that takes
  // the place of nothing until all went well: a refused zip leaves nothing on disk.
  await mkdir(dir, { recursive: true })
  const staging = await mkdtemp(join(dir, '.unzip-'))
  try {
    for (const entry of entries) {
      const target = join(staging, entry.path)
      await mkdir(dirname(target), { recursive: true })
      await writeFile(target, entry.method === 8 ? inflate(entry.data, entry.size, entry.name) : entry.data)
    }
    for (const name of await readdir(staging)) await rename(join(staging, name), join(dir, name))
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
  return entries.map((entry) => entry.name)
}

interface Entry {
  name: string
  /** Where it goes, relative to the folder. */
  path: string
  method: number
  size: number
  data: Buffer
}

/** The entries of the central directory, each checked against the limits; nothing is inflated yet. */
function readEntries(zip: Buffer, limits: UnzipLimits): Entry[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  if (end < 0 || zip.readUInt32LE(end) !== EOCD) throw new Error('not a zip archive')
  const count = zip.readUInt16LE(end + 10)
  if (count > limits.maxEntries) throw new Error(`the zip has ${count} entries; a run folder has at most ${limits.maxEntries}`)
  let offset = zip.readUInt32LE(end + 16)
  const entries: Entry[] = []
  const used: [number, number][] = []
  let total = 0
  for (let i = 0; i < count; i++) {
    if (offset + 46 > zip.length || zip.readUInt32LE(offset) !== CENTRAL) throw new Error('a damaged zip archive (central directory)')
    const method = zip.readUInt16LE(offset + 10)
    const compressedSize = zip.readUInt32LE(offset + 20)
    const size = zip.readUInt32LE(offset + 24)
    const nameLength = zip.readUInt16LE(offset + 28)
    const skip = nameLength + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32)
    const localOffset = zip.readUInt32LE(offset + 42)
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength)
    offset += 46 + skip
    if (name.endsWith('/')) continue
    if (localOffset + 30 > zip.length || zip.readUInt32LE(localOffset) !== LOCAL) throw new Error(`a damaged zip archive (${name})`)
    const start = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28)
    const data = zip.subarray(start, start + compressedSize)
    if (method !== 0 && method !== 8) throw new Error(`${name}: compression method ${method} is not supported`)
    if (used.some(([from, to]) => localOffset < to && from < start + compressedSize)) throw new Error(`the zip's entries overlap (${name}): refused as a zip bomb`)
    used.push([localOffset, start + compressedSize])
    if (size > RATIO_FROM_BYTES && size > limits.maxRatio * Math.max(compressedSize, 1)) {
      throw new Error(`${name} inflates ${Math.round(size / Math.max(compressedSize, 1))} times (${size} bytes from ${compressedSize}); refused as a zip bomb`)
    }
    total += method === 0 ? Math.max(size, compressedSize) : size
    if (total > limits.maxTotalBytes) throw new Error(`the zip holds more than ${limits.maxTotalBytes / 2 ** 20} MiB; a run folder is smaller`)
    entries.push({ name, path: safePath(name), method, size, data })
  }
  return entries
}

/** Inflates no more than the entry says it holds: a lying size cannot make it write more. */
function inflate(data: Buffer, size: number, name: string): Buffer {
  try {
    return inflateRawSync(data, { maxOutputLength: Math.max(size, 1) })
  } catch (error) {
    if (error instanceof RangeError) throw new Error(`${name} inflates to more than the ${size} bytes it declares; refused`)
    throw error
  }
}

function safePath(name: string): string {
  const relative = normalize(name.replaceAll('\\', '/'))
  if (isAbsolute(relative) || relative === '..' || relative.startsWith(`..${sep}`) || relative.includes(`${sep}..${sep}`) || relative.endsWith(`${sep}..`)) {
    throw new Error(`the zip names a file outside its folder: ${name}`)
  }
  return relative
}
