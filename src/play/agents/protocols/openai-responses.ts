import type OpenAI from 'openai'
import type { Response, ResponseCreateParamsBase, ResponseOutputItem } from 'openai/resources/responses/responses'
import type { OpenAIResponsesAgentConfig } from '../../../records/config/config.ts'
import type { Fetch } from '../../../base/http/fetch.ts'
import type { Agent, Answer, AnswerContext, ToolCall } from '../agent.ts'
import { excerpt } from '../fetch-json.ts'
import { endpointOf, explain, openaiClient } from './openai-client.ts'
import { toolCall, withResult } from './tool-call.ts'
import { hasContext, mergedMap, metadataStrings } from './context-slots.ts'
import { spoken } from '../answer-messages.ts'

/**
 * An agent served through OpenAI's Responses API (`protocol: openai-responses`). The server keeps
 * the conversation: each turn sends only the new message with `previous_response_id`, the id of the
 * conversation's last response. Streaming or not, the answer is the final response object: its text,
 * its usage, and its tool-call items (function calls, and hosted tools under their own type).
 */
export function createOpenAIResponsesAgent(config: OpenAIResponsesAgentConfig, fetch?: Fetch): Agent {
  const client = openaiClient(config, fetch)
  const endpoint = endpointOf(config, 'responses')
  return {
    version: config.version,
    conversation: () => {
      let previous: string | undefined
      return {
        async answer(message, context) {
          const request: ResponseCreateParamsBase = {
            ...config.extra_body,
            model: config.model,
            input: message,
            ...(config.instructions === undefined ? {} : { instructions: config.instructions }),
            ...(previous === undefined ? {} : { previous_response_id: previous }),
            // The attempt's context, as strings, over any metadata extra_body sends (context-slots.ts).
            ...(hasContext(context.context) ? { metadata: mergedMap(config.extra_body['metadata'], metadataStrings(context.context)) as Record<string, string> } : {}),
          }
          let response: Response
          try {
            response = config.stream ? await streamedResponse(client, request, context, endpoint) : await client.responses.create({ ...request, stream: false }, { signal: context.signal })
          } catch (error) {
            throw explain(error, endpoint, context.signal)
          }
          const answer = readResponse(response, endpoint)
          // Only a response that answered continues the conversation; after a failed turn the next
          // message follows the last good one.
          previous = response.id
          return answer
        },
      }
    },
  }
}

async function streamedResponse(client: OpenAI, request: ResponseCreateParamsBase, context: AnswerContext, endpoint: string): Promise<Response> {
  const stream = await client.responses.create({ ...request, stream: true }, { signal: context.signal })
  for await (const event of stream) {
    switch (event.type) {
      case 'response.output_text.delta':
        if (event.delta) context.firstToken?.()
        break
      case 'response.completed':
      case 'response.failed':
      case 'response.incomplete':
        return event.response
      case 'error':
        throw new Error(`${endpoint} sent an error in its stream: ${event.code ? `${event.code}: ` : ''}${excerpt(event.message)}`)
    }
  }
  throw new Error(`the stream from ${endpoint} ended without response.completed: the answer was cut short`)
}

function readResponse(response: Response, endpoint: string): Answer {
  if (response.status === 'failed') {
    throw new Error(`${endpoint}: the response failed: ${response.error ? `${response.error.code}: ${excerpt(response.error.message)}` : 'no error given'}`)
  }
  if (response.status === 'incomplete') {
    throw new Error(`${endpoint}: the response is incomplete (${response.incomplete_details?.reason ?? 'no reason given'})`)
  }
  if (!Array.isArray(response.output)) throw new Error(`${endpoint} answered without an output list: ${excerpt(JSON.stringify(response) ?? '')}`)
  // Each output message item is a message of the answer (one before a tool call, one after it).
  const texts = response.output.flatMap((item) => (item.type === 'message' ? [item.content.flatMap((part) => (part.type === 'output_text' ? [part.text] : [])).join('')] : [])).filter((text) => text !== '')
  const calls = response.output.flatMap(toolCallsOf)
  const usage = response.usage ? { input: response.usage.input_tokens, output: response.usage.output_tokens } : undefined
  return { ...spoken(texts), ...(usage ? { usage } : {}), ...(calls.length > 0 ? { toolCalls: calls } : {}) }
}

/** Function and custom tools by their name; hosted tools (web_search_call, …) by their type. */
function toolCallsOf(item: ResponseOutputItem): ToolCall[] {
  switch (item.type) {
    case 'function_call':
      return [toolCall(item.name, item.arguments)]
    case 'mcp_call':
      // A remote MCP tool is run by the server: its output is in the same item.
      return [item.output ? withResult(toolCall(item.name, item.arguments), item.output) : toolCall(item.name, item.arguments)]
    case 'custom_tool_call':
      return [toolCall(item.name, item.input)]
    default: {
      if (!item.type.endsWith('_call')) return []
      const { type, id: _id, status: _status, ...details } = item as { type: string; id?: unknown; status?: unknown }
      return [toolCall(type.slice(0, -'_call'.length), details)]
    }
  }
}
