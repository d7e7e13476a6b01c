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

/** A party with calls in flight that has answered nothing for this long is named. */
export const SILENT_MS = 15_000

/** The longest silence at `now` past SILENT_MS, if any. */
export function silenceAt(waits: WaitsView, now: number): Silence | null {
  const longest = waits.longestSilence()
  return longest && now - longest.since >= SILENT_MS ? longest : null
}

/** `the judge (gpt-4.1) has answered nothing for 0:17 (since 08:00:00 UTC, 3 calls waiting)`. */
export function describeSilence(silence: Silence, now: number): string {
  const seconds = Math.floor((now - silence.since) / 1000)
  const waited = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`
  return `${silence.who} has answered nothing for ${waited} (since ${new Date(silence.since).toISOString().slice(11, 19)} UTC, ${silence.calls} call${silence.calls === 1 ? '' : 's'} waiting)`
}

/**
 * Says each silence once, as it passes SILENT_MS, looking every `everyMs` (for commands with no
 * progress line of their own: judge-check --judge). Returns the function that stops looking.
 */
export function sayEachSilence(waits: WaitsView, clock: () => number, say: (line: string) => void, everyMs = 1_000): { check(): void; stop(): void } {
  const said = new Set<string>()
  const check = () => {
    const now = clock()
    const silent = silenceAt(waits, now)
    if (!silent || said.has(`${silent.who}\n${silent.since}`)) return
    said.add(`${silent.who}\n${silent.since}`)
    say(describeSilence(silent, now))
  }
  const timer = setInterval(check, everyMs)
  timer.unref()
  return { check, stop: () => clearInterval(timer) }
}

type Tracker = ReturnType<typeof createWaits>['track']

/** A judge whose every call is tracked. */
export function trackedJudge(judge: Judge, track: Tracker): Judge {
  return { model: judge.model, decide: (s, d, c) => track(`the judge (${judge.model})`, () => judge.decide(s, d, c)) }
}

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
  const judge = roles.judge && trackedJudge(roles.judge, track)
  const reviewer = roles.reviewer && { model: roles.reviewer.model, review: ((s, f, c) => track(`the review (${roles.reviewer!.model})`, () => roles.reviewer!.review(s, f, c))) as UserReviewer['review'] }
  return { ...roles, agent, user, judge, ...(roles.reviewer !== undefined ? { reviewer } : {}) }
}
