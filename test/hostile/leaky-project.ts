import { tokenForms } from '../fakes/hostile-agent.ts'

/**
 * A project whose convy.yml reads two secrets, the agent's token and the model key, for the tests
 * of what is masked where a run that holds them is published (`mode: publish`, `convy-ci publish`).
 * The agent's address is never reached: the runs these tests publish are recorded, not played.
 */
export const BOT_TOKEN = 'Cn4ry-b0t-t0ken-9f8e7d'
export const API_KEY = 'sk-Cn4ry-m0del-key-31337'

export const LEAKY_CONVY_YML = `models:
  api_key: \${CONVY_API_KEY}
  user: user-model
  judge: judge-model
agents:
  bot:
    url: http://127.0.0.1:9/chat
    headers: { Authorization: "Bearer \${BOT_TOKEN}" }
    body: { message: "{text}" }
    reply: answer
`

/** The secret raw, in a Basic header's base64, and in every form the hostile agent echoes it in, in one line. */
export const everyForm = (secret: string) => [secret, Buffer.from(`user:${secret}`).toString('base64'), ...tokenForms(secret)].join(' · ')
