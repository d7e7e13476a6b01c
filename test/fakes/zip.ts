import { constants, crc32, deflateRawSync } from 'node:zlib'

/**
 * A zip as the format describes it: local headers and data, then the central directory. `deflate:
 * 'runs'` compresses with deflate's run-length strategy, for long runs of one byte (a zip bomb's
 * zeros): as small as the default strategy makes them, in a fifteenth of the CPU (256 MiB of zeros:
 * 260,916 bytes either way, 0.13 s instead of 2 s).
 *
 * An entry's file is its `data` `repeat` times over (once by default), so a bomb's 256 MiB need not
 * be in memory: reading 256 MiB of fresh zeros to compress it cost 1.4 CPU-s of page faults alone.
 * Repeated, `data` is compressed once, flushed whole (Z_FULL_FLUSH: what follows refers to nothing
 * before it), and that stream is repeated, then an empty final block.
 */
export function zipOf(entries: { name: string; data: Buffer; repeat?: number; deflate?: boolean | 'runs' }[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const repeat = entry.repeat ?? 1
    const options = entry.deflate === 'runs' ? { strategy: constants.Z_RLE } : {}
    let body = entry.data
    if (entry.deflate && repeat === 1) body = deflateRawSync(entry.data, options)
    else if (entry.deflate) body = Buffer.concat([...new Array<Buffer>(repeat).fill(deflateRawSync(entry.data, { ...options, finishFlush: constants.Z_FULL_FLUSH })), deflateRawSync(Buffer.alloc(0))])
    else if (repeat > 1) body = Buffer.concat(new Array<Buffer>(repeat).fill(entry.data))
    const name = Buffer.from(entry.name)
    let checksum = 0
    for (let i = 0; i < repeat; i++) checksum = crc32(entry.data, checksum)
    const fields = (header: Buffer, at: number) => {
      header.writeUInt16LE(entry.deflate ? 8 : 0, at)
      header.writeUInt32LE(checksum, at + 6)
      header.writeUInt32LE(body.length, at + 10)
      header.writeUInt32LE(entry.data.length * repeat, at + 14)
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
