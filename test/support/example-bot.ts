import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const SERVER = fileURLToPath(new URL('../../scenarios-example/server.mjs', import.meta.url))

/** The example bot as a real HTTP service (scenarios-example/server.mjs), on a port the system picks. */
export async function startExampleBot(): Promise<{ url: string; process: ChildProcess }> {
  const child = spawn(process.execPath, [SERVER], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] })
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the example bot exited with ${code}`)))
    child.stdout!.setEncoding('utf8').on('data', (text: string) => {
      const match = /listening on (http:\/\/localhost:\d+)/.exec(text)
      if (match) resolve(match[1]!)
    })
  })
  return { url, process: child }
}
