import { createServer, request as httpRequest, type IncomingMessage } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'

/**
 * A forwarding proxy on 127.0.0.1, as a company's would be: a request in absolute form
 * (`GET http://host:port/path`) is sent on to its server, a CONNECT opens a tunnel (the proxy sees
 * the host, not what goes through). Every request is logged first. Host names are looked up in
 * `hosts` (name → 127.0.0.1 port's host), so tests can use names that are not loopback addresses,
 * which the toolkit's rules never send through a proxy.
 */
export interface ForwardProxy {
  url: string
  /** `GET http://agent.test:4000/api/chat`, `CONNECT secure.test:4443`, in order. */
  log: string[]
  /** The Proxy-Authorization headers received, in order ('' when none). */
  authorizations: string[]
  close(): Promise<void>
}

export async function startForwardProxy(options: { hosts?: Readonly<Record<string, string>>; requireAuth?: string } = {}): Promise<ForwardProxy> {
  const log: string[] = []
  const authorizations: string[] = []
  const sockets = new Set<Socket>()
  const hostOf = (name: string) => options.hosts?.[name] ?? name
  const refused = (req: IncomingMessage) => {
    const auth = req.headers['proxy-authorization'] ?? ''
    authorizations.push(auth)
    return options.requireAuth !== undefined && auth !== options.requireAuth
  }
  const server = createServer((req, res) => {
    log.push(`${req.method} ${req.url}`)
    if (refused(req)) return void res.writeHead(407, { 'proxy-authenticate': 'Basic' }).end()
    const target = new URL(req.url!)
    const headers = { ...req.headers }
    delete headers['proxy-authorization']
    delete headers['proxy-connection']
    const forward = httpRequest({ host: hostOf(target.hostname), port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers)
      answer.pipe(res)
    })
    forward.on('error', () => res.writeHead(502).end())
    req.pipe(forward)
  })
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    log.push(`CONNECT ${req.url}`)
    if (refused(req)) return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n')
    const [host, port] = req.url!.split(':')
    const upstream = connect(Number(port), hostOf(host!), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => socket.destroy())
    }
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    authorizations,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      server.closeAllConnections()
      await new Promise((done) => server.close(done))
    },
  }
}
