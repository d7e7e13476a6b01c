import type { Attempt, RunManifest, Turn } from '../../src/records/journal/records.ts'

/**
 * A run in which every piece of text that comes from an agent, a model or a scenario file tries to
 * become markup or code. Each payload sets `window.__pwned` if it ever runs, so a browser test can
 * tell; a unit test checks that none of it reaches the page as a tag, an attribute or a script.
 */
export const PAYLOADS: readonly string[] = [
  '<script>window.__pwned = 1</script>',
  '<img src=x onerror="window.__pwned = 1">',
  '</textarea><script>window.__pwned = 1</script><textarea>',
  '</script><script>window.__pwned = 1</script>',
  '<a href="javascript:window.__pwned = 1">click me</a> javascript:window.__pwned=1',
  '<!-- <script>window.__pwned = 1</script> -->',
  '"><svg onload="window.__pwned = 1">',
  "'><details open ontoggle='window.__pwned = 1'>",
  '<style>body{display:none}</style>',
  '<iframe srcdoc="<script>parent.__pwned = 1</script>"></iframe>',
  '<meta http-equiv="refresh" content="0;url=javascript:window.__pwned=1">',
  'line\u2028separator\u2029paragraph {"x":"</script>"}',
]

export const ALL_PAYLOADS = PAYLOADS.join(' ')

/** An answer of 5 MiB, with no space to break at in its first part. */
export const HUGE_ANSWER = `${'W'.repeat(3_000)}${'<b>bold?</b> '.repeat(Math.ceil((5 * 1024 * 1024 - 3_000) / 13))}`.slice(0, 5 * 1024 * 1024)

export function hostileManifest(): RunManifest {
  return {
    format: 1,
    id: `evil<b>/2026-01-02T03-04-05_beef`,
    agent: { name: `evil<img src=x onerror="window.__pwned = 1">`, kind: 'json', version: '<script>window.__pwned = 1</script>', fingerprint: 'f'.repeat(64) },
    convyVersion: '0.1.0',
    models: { user: '<i>user-model</i>', judge: '"judge"><script>window.__pwned = 1</script>', fingerprint: 'e'.repeat(64), prices: {} },
    settings: { k: 2, parallel: 1, turnTimeoutSeconds: 30, scenarioGlobs: [], tags: [], smoke: false, shard: null },
    scenarios: [
      {
        id: '<img src=x onerror="window.__pwned = 1">',
        file: 'scenarios/</textarea>.yml',
        maxTurns: 4,
        user: ALL_PAYLOADS,
        script: [PAYLOADS[0]!, PAYLOADS[4]!],
        judge: [PAYLOADS[1]!, PAYLOADS[3]!],
        checks: [{ kind: 'contains', value: PAYLOADS[2]! }],
        tags: ['<b>tag</b>', 'javascript:alert(1)'],
      },
    ],
    startedAt: '2026-01-02T03:04:05.000Z',
    finishedAt: '2026-01-02T03:10:05.000Z',
    state: 'finished',
    ci: { commit: '<script>', branch: '</script><script>window.__pwned=1</script>', pullRequest: 7 },
  }
}

function turn(role: Turn['role'], text: string, error: string | null = null): Turn {
  return { role, text, seconds: 1.5, tokens: role === 'agent' ? { input: 10, output: 20 } : null, error }
}

export function hostileAttempts(options: { huge?: boolean } = {}): Attempt[] {
  const scenario = hostileManifest().scenarios[0]!.id
  const base = {
    scenario,
    agentTokens: { input: 30, output: 60 },
    models: { user: null, judge: null },
    startedAt: '2026-01-02T03:04:06.000Z',
    seconds: 3,
  }
  return [
    {
      ...base,
      attempt: 1,
      verdict: 'failed',
      error: null,
      claims: [
        { claim: PAYLOADS[1]!, pass: false, reason: ALL_PAYLOADS },
        { claim: PAYLOADS[3]!, pass: true, reason: PAYLOADS[6]! },
      ],
      checks: [{ kind: '<b>kind</b>', value: PAYLOADS[2]!, pass: false, detail: PAYLOADS[9]! }],
      turns: PAYLOADS.flatMap((p) => [turn('user', p), turn('agent', p)]).concat(options.huge ? [turn('agent', HUGE_ANSWER)] : []),
    },
    {
      ...base,
      attempt: 2,
      verdict: 'agent_error',
      error: `the agent failed turn 2: ${PAYLOADS[3]!}`,
      claims: [],
      checks: [],
      turns: [turn('user', PAYLOADS[0]!), turn('agent', '', PAYLOADS[1]!)],
    },
  ]
}
