/**
 * convy.yml for the tests, built from the parts they vary, so a reader sees what a test changes
 * rather than a pasted block. The text is what a user would write: the tests read it through the
 * real config loader, and line numbers in error messages count from its first line.
 */

/** The `models:` block for a fake model server whose address is in a variable. */
export interface ModelsPart {
  /** The variable holding the server's address; null leaves base_url out (OPENAI_BASE_URL then). */
  urlVariable?: string | null
  /** api_key as written, e.g. `test-key` or `${CONVY_API_KEY}`; default none. */
  apiKey?: string
  /** The simulated user's model; null leaves it out (a run of scripted scenarios needs none). */
  user?: string | null
  /** The judge's model; null leaves it out. */
  judge?: string | null
  maxTries?: number
  /** Dollars per million input and output tokens, by model. */
  prices?: Record<string, [number, number]>
}

export function modelsYml(part: ModelsPart = {}): string {
  const { urlVariable = 'CONVY_BASE_URL', apiKey, user = 'user-model', judge = 'judge-model', maxTries, prices } = part
  const lines = ['models:']
  if (urlVariable !== null) lines.push(`  base_url: \${${urlVariable}}`)
  if (apiKey !== undefined) lines.push(`  api_key: ${apiKey}`)
  if (user !== null) lines.push(`  user: ${user}`)
  if (judge !== null) lines.push(`  judge: ${judge}`)
  if (maxTries !== undefined) lines.push(`  max_tries: ${maxTries}`)
  if (prices !== undefined) {
    lines.push('  prices:')
    for (const [model, [input, output]] of Object.entries(prices)) lines.push(`    ${model}: [${input}, ${output}]`)
  }
  return `${lines.join('\n')}\n`
}

/** An agent that speaks the fake chat bot's protocol (test/fakes/agent-server.ts, scenarios-example/server.mjs). */
export interface ChatBotPart {
  /** The chat endpoint; default `${BOT_URL}/api/chat`. */
  url?: string
  /** e.g. `Bearer ${BOT_TOKEN}` for an Authorization header. */
  authorization?: string
  /** Read the bot's token counts too. */
  tokens?: boolean
}

export function chatBotYml(name: string, part: ChatBotPart = {}): string {
  const lines = [`  ${name}:`, `    url: ${part.url ?? '${BOT_URL}/api/chat'}`]
  if (part.authorization !== undefined) lines.push(`    headers: { Authorization: "${part.authorization}" }`)
  lines.push('    body: { session_id: "{session}", message: "{text}" }', '    reply: data.answer')
  if (part.tokens) lines.push('    tokens: [data.usage.input_tokens, data.usage.output_tokens]')
  return `${lines.join('\n')}\n`
}

/**
 * A whole convy.yml: the models (none when null) and the agents, each an entry as chatBotYml makes
 * it, or any text indented as an entry under `agents:`. No agents: no `agents:` key; `{}`: `agents: {}`.
 */
export function convyYml(parts: { models?: ModelsPart | null; agents?: string[] | '{}' }): string {
  const models = parts.models === null ? '' : modelsYml(parts.models)
  if (parts.agents === undefined) return models
  if (parts.agents === '{}') return `${models}agents: {}\n`
  return `${models}agents:\n${parts.agents.join('')}`
}

/** The usual project: both fake models at ${CONVY_BASE_URL} and the fake chat bot at ${BOT_URL} as support_bot. */
export const FAKE_MODELS_AND_BOT_YML = convyYml({ agents: [chatBotYml('support_bot')] })
