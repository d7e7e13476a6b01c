import { constants, crc32, deflateRawSync } from 'node:zlib'

/**
 * A zip as the format describes it: local headers and data, then the central directory. `deflate:
 * 'runs'` compresses with deflate's run-length strategy, for long runs of one byte (a zip bomb's
 * zeros): as small as the default strategy makes them, in a fifteenth of the CPU (256 MiB of zeros:
 * 260,916 bytes either way, 0.13 s instead of 2 s).
 */
export function zipOf(entries: { name: string; data: Buffer; deflate?: boolean | 'runs' }[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const body = entry.deflate ? deflateRawSync(entry.data, entry.deflate === 'runs' ? { strategy: constants.Z_RLE } : {}) : entry.data
    const name = Buffer.from(entry.name)
    const checksum = crc32(entry.data)
    const fields = (header: Buffer, at: number) => {
      header.writeUInt16LE(entry.deflate ? 8 : 0, at)
      header.writeUInt32LE(checksum, at + 6)
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
