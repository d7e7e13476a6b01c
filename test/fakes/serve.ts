import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { TestCertificates } from './certificates.ts'

/**
 * What the protocol fakes share: a server on 127.0.0.1 (plain HTTP, or HTTPS that asks for a client
 * certificate signed by the test CA), JSON and SSE writing, and the markers a test puts in a user
 * message to make the agent misbehave.
 *
 * - `[error]`: the agent fails inside a 200 answer (an error event or part, a failed task).
 * - `[drop]`: the connection is destroyed after part of the answer was sent.
 * - `[hang]`: part of the answer is sent, then nothing more (the turn times out).
 */
export type Misbehaviour = 'error' | 'drop' | 'hang'

export function misbehaviourIn(message: string): Misbehaviour | undefined {
  return /\[(error|drop|hang)\]/.exec(message)?.[1] as Misbehaviour | undefined
}

export interface Served {
  url: string
  close(): Promise<void>
}

export async function serve(handler: RequestListener, tls?: TestCertificates): Promise<Served> {
  const server: Server = tls
    ? createHttpsServer({ key: tls.serverKey, cert: tls.serverCert, ca: tls.caCert, requestCert: true, rejectUnauthorized: true }, handler)
    : createHttpServer(handler)
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready))
  const { port } = server.address() as AddressInfo
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections()
        server.close(() => closed())
      }),
  }
}

export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = ''
  for await (const chunk of req) text += String(chunk)
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>)
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}

export function startEvents(res: ServerResponse, contentType = 'text/event-stream'): void {
  res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache' })
  res.flushHeaders()
}

export function writeEvent(res: ServerResponse, data: unknown, event?: string): void {
  res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`)
}

/** Ends a stream the way the marker asks, after part of the answer; true when it did. */
export function misbehave(res: ServerResponse, misbehaviour: Misbehaviour | undefined): boolean {
  if (misbehaviour === 'drop') {
    res.socket?.destroy()
    return true
  }
  return misbehaviour === 'hang'
}

export function pause(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms))
}

export function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length
}

/** The answer in pieces of a word or two, as a model streams it. */
export function pieces(text: string): string[] {
  return text.split(/(?<= )/)
}
