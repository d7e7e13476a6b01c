import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

declare module 'node:http' {
  interface ServerResponse {
    /** The command this response answers, for `served()`. */
    command?: string
  }
}

/**
 * An agent that misbehaves on purpose, over real HTTP on 127.0.0.1, for the fault-injection tests.
 * What it does is chosen by the user's message:
 *
 * - `echo`: answers 200 with what it was sent: the request line, the headers as JSON (so a secret
 *   appears raw and JSON-escaped), the URL (percent-encoded) and the Authorization header in base64.
 * - `big:N`: answers N bytes of text inside a normal JSON answer.
 * - `huge:N`: streams N bytes of one JSON string, a megabyte at a time: a body larger than convy-ci keeps.
 * - `hang`: never answers.
 * - `aaa:N`: answers N "a"s and a "b" (a catastrophic-backtracking input for `(a+)+$`).
 * - `forms`: answers the bearer token in the forms a plain search misses: split by a bidi override and
 *   by a zero-width space, as HTML entities (a framework's error page), lower-case and every-byte
 *   percent-encoding, `\uXXXX` and hex.
 * - `reject`: answers 401 `token rejected: <the token split by a bidi override>`.
 * - `late:MS`: answers "on time" after MS milliseconds (a healthy agent that takes a while).
 * - `reader`: answers the bearer token in the forms issue 36 found unmasked (readerForms), and its
 *   `X-Pin` header as the JSON number of its usage (tokens in) and in fullwidth digits.
 */
export interface HostileAgent {
  url: string
  /** Resolves once an answer to this command (`big`, `echo`…) has been sent. */
  served(command: string): Promise<void>
  close(): Promise<void>
}

export async function startHostileAgent(): Promise<HostileAgent> {
  const open = new Set<ServerResponse>()
  const waiting: { command: string; resolve: () => void }[] = []
  const server = createServer((request, response) => {
    open.add(response)
    response.on('close', () => open.delete(response))
    response.on('finish', () => {
      for (const wait of waiting.filter((w) => w.command === response.command)) wait.resolve()
    })
    void handle(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    served: (command) => new Promise((resolve) => waiting.push({ command, resolve })),
    close: async () => {
      for (const response of open) response.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  let text = ''
  for await (const chunk of request) text += String(chunk)
  const message = String((JSON.parse(text || '{}') as { message?: unknown }).message ?? '')
  const json = (body: unknown) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify(body))
  }
  const [command, size] = message.split(':')
  const n = Number(size ?? 0)
  response.command = command
  switch (command) {
    case 'echo': {
      const authorization = String(request.headers.authorization ?? '')
      const answer = [
        `${request.method} ${request.url}`,
        JSON.stringify(request.headers),
        JSON.stringify(JSON.stringify({ authorization })),
        `base64 ${Buffer.from(authorization).toString('base64')}`,
        `basic ${Buffer.from(`user:${authorization.replace('Bearer ', '')}`).toString('base64')}`,
      ].join('\n')
      return json({ answer })
    }
    case 'big':
      return json({ answer: 'x'.repeat(n) })
    case 'huge': {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.write('{"answer":"')
      const chunk = 'y'.repeat(2 ** 20)
      for (let sent = 0; sent < n && !response.destroyed; sent += chunk.length) {
        if (!response.write(chunk)) await new Promise((resolve) => response.once('drain', resolve))
      }
      response.end('"}')
      return
    }
    case 'aaa':
      return json({ answer: `${'a'.repeat(n)}b` })
    case 'hang':
      return
    case 'forms':
      return json({ answer: tokenForms(bearerToken(request)).join('\n') })
    case 'reject': {
      const token = bearerToken(request)
      response.writeHead(401, { 'content-type': 'text/plain' })
      return void response.end(`token rejected: ${token.slice(0, 4)}\u202E${token.slice(4)}`)
    }
    case 'reader': {
      const pin = String(request.headers['x-pin'] ?? '')
      const fullwidth = [...pin].map((c) => String.fromCodePoint(c.charCodeAt(0) + 0xfee0)).join('')
      return json({ answer: [...readerForms(bearerToken(request)), `pin ${fullwidth}`].join('\n'), usage: { in: Number(pin), out: 7 } })
    }
    case 'late':
      await new Promise((resolve) => setTimeout(resolve, n))
      return json({ answer: 'on time' })
    default:
      return json({ answer: `you said ${message}` })
  }
}

function bearerToken(request: IncomingMessage): string {
  return String(request.headers.authorization ?? '').replace(/^Bearer /, '')
}

/** A secret as hostile output writes it so that a plain search misses it. */
export function tokenForms(token: string): string[] {
  const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0')
  const each = (f: (c: string) => string) => [...token].map(f).join('')
  return [
    `bidi ${token.slice(0, 4)}\u202E${token.slice(4)}`,
    `zero-width ${token.slice(0, 6)}\u200B${token.slice(6)}`,
    `<pre>authorization: Bearer ${each((c) => `&#x${hex(c)};`)}</pre>`,
    `decimal ${each((c) => `&#${c.charCodeAt(0)};`)}`,
    `html ${token.replaceAll('-', '&#45;')}`,
    `percent ${each((c) => `%${hex(c)}`)}`,
    `json "${each((c) => `\\u00${hex(c).toUpperCase()}`)}"`,
    `hex ${Buffer.from(token).toString('hex')}`,
  ]
}

/** A secret in the forms issue 36 found unmasked: invisible splits the old list left out, nested escapes, wrapped encodings, fullwidth. */
export function readerForms(token: string): string[] {
  const bytes = Buffer.from(token)
  const hex = (b: number) => b.toString(16).padStart(2, '0')
  const split = (by: string) => `${token.slice(0, 4)}${by}${token.slice(4, 9)}${by}${token.slice(9)}`
  return [
    ...['\u034F', '\uFE0F', '\u{E0020}', '\u206F', '\u180B', '\u17B4'].map((by) => `split ${split(by)}`),
    `double-percent ${[...bytes].map((b) => `%25${hex(b)}`).join('')}`,
    `double-json ${JSON.stringify(JSON.stringify([...token].map((c) => `\\u00${hex(c.charCodeAt(0))}`).join('')))}`,
    `entities ${[...token].map((c) => `&#${String(c.charCodeAt(0)).padStart(8, '0')};`).join('')}`,
    `x-escapes ${[...bytes].map((b) => `\\x${hex(b)}`).join('')}`,
    `braces ${[...token].map((c) => `\\u{${hex(c.charCodeAt(0))}}`).join('')}`,
    `mime ${Buffer.from(`${'m'.repeat(70)}${token}`).toString('base64').replace(/(.{76})/g, '$1\r\n')}`,
    `xxd ${bytes.toString('hex').replace(/(.{4})/g, '$1 ')}`,
    `fullwidth ${[...token].map((c) => String.fromCodePoint(c.charCodeAt(0) + 0xfee0)).join('')}`,
  ]
}
