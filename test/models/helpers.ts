import type { CallRecord, ModelCallContext } from '../../src/adapters/model-client/model-call.ts'
import type { Clock } from '../../src/adapters/model-client/rate-limiter.ts'
import type { Scenario } from '../../src/records/scenario/scenario.ts'
import { createModels, type ModelsOptions } from '../../src/play/runner/prepare.ts'

/** A call context that keeps every CallRecord, with an AbortController the test can pull. */
export function recordingContext(): { context: ModelCallContext; records: CallRecord[]; abort: AbortController } {
  const records: CallRecord[] = []
  const abort = new AbortController()
  return { context: { signal: abort.signal, record: (call) => records.push(call) }, records, abort }
}

export function scenario(overrides: Partial<Scenario> = {}): Scenario {
  return {
    id: 'backup',
    file: 'scenarios/backup.yml',
    maxTurns: 6,
    user: 'You need a backup script. Start short: "Make me a backup script".\nGive details only when asked: back up ~/photos to /mnt/backup, daily.',
    judge: ['The agent asked what to back up', 'The final script runs once a day'],
    checks: [],
    tags: [],
    ...overrides,
  }
}

/**
 * A clock whose sleeps end at once and are kept, in order: the pauses a client chose, seen without
 * waiting for them (and without the machine's load in the figures). Its time is the real time plus
 * every pause slept, so a rate limiter waiting on it sees its pause over.
 */
export function recordingClock(): Clock & { sleeps: number[] } {
  const sleeps: number[] = []
  let slept = 0
  return {
    sleeps,
    now: () => Date.now() + slept,
    sleep: async (ms) => {
      sleeps.push(ms)
      slept += ms
    },
  }
}

/**
 * Models against a fake server, with pauses short enough for tests. The timeout is a guard against a
 * hang (a test about timeouts sets its own): a busy machine must not turn a slow answer into a retry.
 */
export function testModels(url: string, overrides: Partial<ModelsOptions> = {}) {
  const models = createModels({ baseURL: url, apiKey: 'sk-test-secret-key', userModel: 'fake-user', judgeModel: 'fake-judge', timeoutSeconds: 30, maxTries: 3, retryBaseMs: 5, ...overrides })
  if (models.user === null || models.judge === null) throw new Error('both models were asked for')
  return { user: models.user, judge: models.judge }
}
