import { createServer } from 'node:http'

/** Where one attempt's tools listen, and the host its `tools_url` names (convy.yml's `tools_host`). Apart from mcp-server.ts, which loads the MCP SDK. */
export interface ListenOptions {
  /** The address to listen on; default 127.0.0.1. */
  bind?: string
  /** The host the agent reaches it by, in `tools_url`; default the bind address. */
  advertise?: string
}

/** Whether the address can be listened on: checked once before a run, so a wrong `tools_host` stops it at once. */
export async function canListen(bind: string): Promise<string | null> {
  const server = createServer()
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, bind, resolve)
    })
    return null
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error)
  } finally {
    server.close()
  }
}
