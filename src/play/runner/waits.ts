import type { Agent, Conversation } from '../agents/agent.ts'
import type { Judge, SimulatedUser, UserReviewer } from '../conversation/roles.ts'

/** A party the run is waiting on that has answered nothing for a while. */
export interface Silence {
  /** Who: `the agent "bot"`, `the judge (gpt-4.1)`… */
  who: string
  /** Since when (the clock's milliseconds): its last answer, or the start of its oldest call after that. */
  since: number
  /** Calls to it in flight now. */
  calls: number
}

/** What the progress line reads: the longest silence of a party with calls in flight. */
export interface WaitsView {
  longestSilence(): Silence | null
}

interface Party {
  inFlight: Map<number, number>
  lastAnswer: number
}

/**
 * The calls a run has in flight, per party (the agent, the simulated user's model, the judge, the
 * review), and when each party last answered: so the progress line can say that the agent or the
 * gateway has answered nothing for 15 s, and since when, instead of a run that prints nothing while
 * every attempt waits out its timeout. The clock is passed in, so a test moves it.
 */
export function createWaits(clock: () => number): WaitsView & { track<T>(who: string, call: () => Promise<T> | T): Promise<T> } {
  const parties = new Map<string, Party>()
  let next = 0
  return {
    async track(who, call) {
      const party = parties.get(who) ?? { inFlight: new Map<number, number>(), lastAnswer: -Infinity }
      parties.set(who, party)
      const id = next++
      party.inFlight.set(id, clock())
      try {
        return await call()
      } finally {
        party.inFlight.delete(id)
        // An error is an answer too: the party is not silent, it failed (and the attempt says so).
        party.lastAnswer = clock()
      }
    },
    longestSilence() {
      let longest: Silence | null = null
      for (const [who, party] of parties) {
        if (party.inFlight.size === 0) continue
        const since = Math.max(party.lastAnswer, Math.min(...party.inFlight.values()))
        if (longest === null || since < longest.since) longest = { who, since, calls: party.inFlight.size }
      }
      return longest
    },
  }
}

type Tracker = ReturnType<typeof createWaits>['track']

/** The roles of a run with each of their calls tracked. */
export function trackedRoles<R extends { agent: Agent; user: SimulatedUser | null; judge: Judge | null; reviewer?: UserReviewer | null }>(roles: R, agentName: string, track: Tracker): R {
  const agentWho = `the agent "${agentName}"`
  const agent: Agent = {
    ...(roles.agent.version !== undefined ? { version: roles.agent.version } : {}),
    conversation: async (context) => {
      const conversation = await track(agentWho, () => roles.agent.conversation(context))
      const tracked: Conversation = { answer: (message, answerContext) => track(agentWho, () => conversation.answer(message, answerContext)) }
      if (conversation.close) tracked.close = (closeContext) => conversation.close!(closeContext)
      return tracked
    },
  }
  const user = roles.user && { ...roles.user, model: roles.user.model, next: ((s, d, c) => track(`the simulated user's model (${roles.user!.modelFor?.(s) ?? roles.user!.model})`, () => roles.user!.next(s, d, c))) as SimulatedUser['next'] }
  if (user && roles.user!.modelFor) user.modelFor = (s) => roles.user!.modelFor!(s)
  const judge = roles.judge && { model: roles.judge.model, decide: ((s, d, c) => track(`the judge (${roles.judge!.model})`, () => roles.judge!.decide(s, d, c))) as Judge['decide'] }
  const reviewer = roles.reviewer && { model: roles.reviewer.model, review: ((s, f, c) => track(`the review (${roles.reviewer!.model})`, () => roles.reviewer!.review(s, f, c))) as UserReviewer['review'] }
  return { ...roles, agent, user, judge, ...(roles.reviewer !== undefined ? { reviewer } : {}) }
}
