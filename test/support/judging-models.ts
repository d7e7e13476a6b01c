import { fakeReply, judgeAnswer, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'

/** The judge-change suites' one scenario: a single turn, one claim. */
export const HELP_SCENARIO = 'user: Ask for help, then stop.\njudge: [The agent agreed to help]\nmax_turns: 1\n'

/**
 * The fake model server of the judge-change suites: the simulated user says the suite's current line,
 * then stops (the echo agent repeats it); a judge model passes an answer when it says "sure", and the
 * `lenient` model passes everything. `judgeCalls(model)` counts the judge calls made to one model.
 */
export async function startJudgingModels(lenient: string, line: () => string): Promise<FakeModelServer & { judgeCalls: (model: string) => number }> {
  const models = await startFakeModelServer({
    user: ({ dialogue }) => (dialogue.length === 0 ? line() : STOP_WORD),
    handler: ({ model, judge }) => {
      if (!judge) return undefined
      const pass = model === lenient || judge.dialogue.some((l) => l.role === 'agent' && l.text.includes('sure'))
      return fakeReply.text(judgeAnswer(judge.claims.map(() => ({ pass, reason: `${model}: ${pass ? 'agreed' : 'did not agree'}` }))))
    },
  })
  return Object.assign(models, { judgeCalls: (model: string) => models.requests.filter((r) => r.kind === 'judge' && (r.body as { model: string }).model === model).length })
}
