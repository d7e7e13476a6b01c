import type { TestCertificates } from '../fakes/certificates.ts'
import { startFakeOpenAIServer } from '../fakes/openai-server.ts'
import { protocolContract } from './protocol-contract.ts'

/** Chat Completions and the Responses API, each streaming and not, against a server the openai client accepts. */
const start = async ({ tls, slow }: { tls?: TestCertificates; slow?: boolean }) => {
  const server = await startFakeOpenAIServer({ tls, pieceMs: slow ? 20 : 0, token: 'agent-key' })
  return { url: `${server.url}/v1`, close: server.close }
}
const base = { model: 'support-agent', api_key: 'agent-key' }

for (const stream of [true, false]) {
  protocolContract({
    name: `openai-chat${stream ? ' (stream)' : ''}`,
    start,
    config: (url) => ({ protocol: 'openai-chat', url, ...base, stream }),
    streams: stream,
    usage: 'counted',
    toolCalls: true,
    agentError: stream ? /sent an error in its stream: The model crashed mid-answer/ : /answered HTTP 500: The model crashed/,
  })
  protocolContract({
    name: `openai-responses${stream ? ' (stream)' : ''}`,
    start,
    config: (url) => ({ protocol: 'openai-responses', url, ...base, stream }),
    streams: stream,
    usage: 'counted',
    toolCalls: true,
    agentError: stream ? /sent an error in its stream: server_error: The model crashed mid-answer/ : /the response failed: server_error: The model crashed/,
  })
}
