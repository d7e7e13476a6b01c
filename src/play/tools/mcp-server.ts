import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { CONVY_VERSION } from '../../base/shared/version.ts'
import { UnknownTool, type ToolTable } from './tool-table.ts'
import type { ListenOptions } from './listen.ts'

/**
 * One attempt's tools over MCP's Streamable HTTP, on a port of its own: `http://HOST:PORT/mcp`.
 * Stateless (no session id): each request gets a fresh SDK server and transport, and what lasts the
 * attempt (call counts, world state, the record) lives in the attempt's ToolTable. A client that
 * reconnects every turn, or holds one session, or several, sees one world.
 */

/** A tools/call body is a few arguments; anything past this is refused before it is read whole. */
export const MAX_REQUEST_BYTES = 1024 * 1024

export interface McpEndpoint {
  /** What the agent is given as `tools_url`. */
  url: string
  close(): Promise<void>
}

export async function serveOverMcp(table: ToolTable, options: ListenOptions = {}): Promise<McpEndpoint> {
  const bind = options.bind ?? '127.0.0.1'
  const sockets = new Set<Socket>()
  const server = createServer((req, res) => {
    handle(table, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end()
      else res.destroy()
    })
  })
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, bind, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const host = options.advertise ?? bind
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        // An agent's open stream or keep-alive connection would hold close() open.
        for (const socket of sockets) socket.destroy()
      }),
  }
}

async function handle(table: ToolTable, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('convy-ci serves this attempt\'s tools at /mcp\n')
    return
  }
  let body: unknown
  if (req.method === 'POST') {
    const text = await readBody(req)
    if (text === null) {
      res.writeHead(413, { 'content-type': 'application/json' }).end(JSON.stringify(rpcError(ErrorCode.InvalidRequest, `a request to the tools may be at most ${MAX_REQUEST_BYTES} bytes`)))
      return
    }
    try {
      body = JSON.parse(text) as unknown
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(rpcError(ErrorCode.ParseError, 'the body is not JSON')))
      return
    }
  }
  const server = mcpServer(table)
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  res.once('close', () => {
    void transport.close()
    void server.close()
  })
  await server.connect(transport)
  await transport.handleRequest(req, res, body)
}

function mcpServer(table: ToolTable): Server {
  const server = new Server({ name: 'convy-ci scenario tools', version: CONVY_VERSION }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: table.list() }))
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    try {
      const result = await table.call(request.params.name, request.params.arguments ?? {})
      return { ...result }
    } catch (error) {
      // An unknown tool is a protocol error (MCP's "Unknown tool" case), naming the tools there are.
      // (An McpError's own message starts "MCP error -32602:", which the client adds again.)
      if (error instanceof UnknownTool) throw Object.assign(new Error(error.message), { code: ErrorCode.InvalidParams })
      throw error
    }
  })
  return server
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > MAX_REQUEST_BYTES) return null
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function rpcError(code: number, message: string): unknown {
  return { jsonrpc: '2.0', id: null, error: { code, message } }
}

