import { startFakeAiSdkServer } from '../fakes/ai-sdk-server.ts'
import { protocolContract } from './protocol-contract.ts'

/** Against a route built with the AI SDK itself: streamText with a scripted mock model, piped as the UI message stream. */
protocolContract({
  name: 'ai-sdk',
  start: async ({ tls, slow }) => startFakeAiSdkServer({ tls, delayMs: slow ? 20 : 0 }),
  config: (url) => ({ protocol: 'ai-sdk', url }),
  streams: true,
  usage: 'counted',
  toolCalls: true,
  toolResults: true,
  agentError: /the agent sent an error: agent error: the model crashed mid-answer/,
})
