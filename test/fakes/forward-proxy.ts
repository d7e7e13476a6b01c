import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'

/**
 * A forwarding proxy on 127.0.0.1, as a company's would be: a request in absolute form
 * (`GET http://host:port/path`) is sent on to its server, a CONNECT opens a tunnel. Every request is
 * logged first. Through a tunnel the proxy sees the host only when TLS goes through it; a tunnel that
 * carries plain HTTP (undici and the toolkit's agents tunnel to http:// servers too) is read request by
 * request, and each is logged as its absolute address after the CONNECT. Host names are looked up
 * in `hosts` (name → 127.0.0.1 port's host), so tests can use names that are not loopback addresses,
 * which the toolkit's rules never send through a proxy.
 */
export interface ForwardProxy {
  url: string
  /**
   * `GET http://agent.test:4000/api/chat`, `CONNECT secure.test:4443`, in order; a request carried
   * in a plain-HTTP tunnel to github.test:4000 is `GET http://github.test:4000/path` after its CONNECT.
   */
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
  const forward = (target: URL, req: IncomingMessage, res: ServerResponse) => {
    const headers = { ...req.headers }
    delete headers['proxy-authorization']
    delete headers['proxy-connection']
    const onward = httpRequest({ host: hostOf(target.hostname), port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers)
      answer.pipe(res)
    })
    onward.on('error', () => res.writeHead(502).end())
    req.pipe(onward)
  }
  const server = createServer((req, res) => {
    log.push(`${req.method} ${req.url}`)
    if (refused(req)) return void res.writeHead(407, { 'proxy-authenticate': 'Basic' }).end()
    forward(new URL(req.url!), req, res)
  })
  // A plain-HTTP tunnel's requests, read by a server of their own: each is logged and sent on to the
  // host its CONNECT named (found by the port the tunnel's connection comes from).
  const tunnelled = new Map<number, string>()
  const inTunnel = createServer((req, res) => {
    const target = new URL(req.url!, `http://${tunnelled.get(req.socket.remotePort!)}`)
    log.push(`${req.method} ${target.href}`)
    forward(target, req, res)
  })
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
  }
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    log.push(`CONNECT ${req.url}`)
    if (refused(req)) return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n')
    track(client)
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    // The first byte tells TLS (a handshake record, 0x16), which goes to the host unread, from HTTP.
    const start = (first: Buffer) => {
      const [host, port] = req.url!.split(':')
      const tls = first[0] === 0x16
      const upstream: Socket = tls
        ? connect(Number(port), hostOf(host!), () => joined())
        : connect((inTunnel.address() as AddressInfo).port, '127.0.0.1', () => {
            tunnelled.set(upstream.localPort!, req.url!)
            joined()
          })
      const joined = () => {
        upstream.write(first)
        upstream.pipe(client)
        client.pipe(upstream)
      }
      track(upstream)
    }
    if (head.length > 0) start(head)
    else client.once('data', (first: Buffer) => {
      client.pause()
      start(first)
    })
  })
  await new Promise<void>((done) => inTunnel.listen(0, '127.0.0.1', done))
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    authorizations,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      server.closeAllConnections()
      inTunnel.closeAllConnections()
      await new Promise((done) => server.close(done))
      await new Promise((done) => inTunnel.close(done))
    },
  }
}
