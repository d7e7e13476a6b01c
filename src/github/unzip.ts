import { mkdir, writeFile } from 'node:fs/promises'
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

export async function unzip(zip: Buffer, dir: string): Promise<string[]> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  if (end < 0 || zip.readUInt32LE(end) !== EOCD) throw new Error('not a zip archive')
  const count = zip.readUInt16LE(end + 10)
  let offset = zip.readUInt32LE(end + 16)
  const written: string[] = []
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(offset) !== CENTRAL) throw new Error('a damaged zip archive (central directory)')
    const method = zip.readUInt16LE(offset + 10)
    const compressedSize = zip.readUInt32LE(offset + 20)
    const nameLength = zip.readUInt16LE(offset + 28)
    const skip = nameLength + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32)
    const localOffset = zip.readUInt32LE(offset + 42)
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength)
    offset += 46 + skip
    if (name.endsWith('/')) continue
    if (zip.readUInt32LE(localOffset) !== LOCAL) throw new Error(`a damaged zip archive (${name})`)
    const start = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28)
    const data = zip.subarray(start, start + compressedSize)
    if (method !== 0 && method !== 8) throw new Error(`${name}: compression method ${method} is not supported`)
    const target = safePath(dir, name)
    await mkdir(dirname(target), { recursive: true })
    await writeFile(target, method === 8 ? inflateRawSync(data) : data)
    written.push(name)
  }
  return written
}

function safePath(dir: string, name: string): string {
  const relative = normalize(name.replaceAll('\\', '/'))
  if (isAbsolute(relative) || relative === '..' || relative.startsWith(`..${sep}`) || relative.includes(`${sep}..${sep}`)) {
    throw new Error(`the zip names a file outside its folder: ${name}`)
  }
  return join(dir, relative)
}
