import * as z from '../../base/shared/zod.ts'
import { ScenarioSchema } from '../scenario/scenario.ts'
import { AdaptiveRecordSchema, AdaptiveSettingsSchema, AttemptsByHistorySettingsSchema } from './adaptive-record.ts'

/**
 * The run folder's two records. Both are versioned from day one; readers reject versions they do not
 * know with a clear message rather than guessing.
 */
export const RUN_FORMAT = 1

/** What the review of a failed attempt can blame on the simulated user (τ²-bench's user-error tags). */
export const SIMULATOR_MISTAKES = ['revealed_early', 'invented_fact', 'stopped_early', 'broke_character', 'ignored_instructions'] as const
export const SimulatorMistakeSchema = z.object({
  kind: z.enum(SIMULATOR_MISTAKES),
  /** The simulated user's line it happened in, 1-based. */
  line: z.int().check(z.positive()),
  note: z.string(),
})
export type SimulatorMistake = z.infer<typeof SimulatorMistakeSchema>

/*
 * The schemas of run.json and of a line of attempts.jsonl. They check a run folder when it is read
 * back (report, resume, compare, …); while a run is played the records are only written.
 */
const count = z.int().check(z.nonnegative())
const ordinal = z.int().check(z.positive())
const seconds = z.number().check(z.nonnegative())
const dollars = z.number().check(z.nonnegative())
const optionalText = z.optional(z.nullable(z.string()))

export const TokensSchema = z.object({ input: count, output: count })

export const RunStateSchema = z.enum(['running', 'interrupted', 'finished'])

export const ShardSchema = z.object({ index: ordinal, total: ordinal })

export const RunSettingsSchema = z.object({
  k: ordinal,
  parallel: ordinal,
  turnTimeoutSeconds: z.number().check(z.positive()),
  scenarioGlobs: z.array(z.string()),
  tags: z.array(z.string()),
  smoke: z.boolean(),
  shard: z.nullable(ShardSchema),
  /** Dollars the run may spend on convy-ci's models; null or absent: no limit. */
  budgetUsd: z.optional(z.nullable(z.number().check(z.positive()))),
  /** Judgements per attempt (run --judge-samples): each claim's decision is the majority of its votes. Absent: 1. */
  judgeSamples: z.optional(ordinal),
  /** How the model cache was used: off, read, write, readwrite; absent in runs before the cache. */
  cache: z.optional(z.enum(['off', 'read', 'write', 'readwrite'])),
  /**
   * Failed attempts of the simulated user were reviewed for its own mistakes (user_error). Given to
   * `run` as a choice (absent: convy.yml decides); in run.json, what was done. Absent in older runs: off.
   */
  review: z.optional(z.boolean()),
  /** Adaptive attempts (run --adaptive): the rule and its parameters; absent: every scenario played k times. */
  adaptive: z.optional(AdaptiveSettingsSchema),
  /** Attempts from the trend (run --attempts-by-history, the action's push to the baseline branch): the rule and its numbers; each scenario's attempts are in the manifest's `adaptive`. */
  attemptsByHistory: z.optional(AttemptsByHistorySettingsSchema),
})

export const RunManifestSchema = z.object({
  format: z.literal(RUN_FORMAT),
  id: z.string(),
  agent: z.object({
    name: z.string(),
    kind: z.string(),
    /** What the agent says its version is (convy.yml `version:` or the module's `agent.version`). */
    version: z.nullable(z.string()),
    /** sha256 of the agent's configuration as written (before ${VAR}s) or of its module's source. */
    fingerprint: z.string(),
    /** Dollars per million of its tokens, [input, output], when convy.yml gives them. */
    price: z.optional(z.nullable(z.tuple([z.number(), z.number()]))),
  }),
  convyVersion: z.string(),
  models: z.object({
    user: z.nullable(z.string()),
    judge: z.nullable(z.string()),
    /**
     * Where the judge was asked: host and path of the models' address, nothing that can carry a secret
     * (base/shared/url-secrets.ts's endpointIdentity). The judge's identity includes its endpoint: the
     * same model name at another gateway may be another model. Null without a judge; absent in older runs.
     */
    judgeEndpoint: z.optional(z.nullable(z.string())),
    /** sha256 of the models' configuration as written, secrets excluded. */
    fingerprint: z.string(),
    /** Dollars per million tokens, input and output, by model name. */
    prices: z.record(z.string(), z.tuple([z.number(), z.number()])),
  }),
  /**
   * What convy-ci's models were told: sha256 fingerprints of the judge's and the simulated user's
   * prompts (null for a model the run did not use), the judge's temperature and its samples per
   * attempt. A comparison across a change of any of these cannot blame the agent. Absent in runs made
   * before it was recorded.
   */
  prompts: z.optional(
    z.object({
      judge: z.nullable(z.string()),
      user: z.nullable(z.string()),
      judgeTemperature: z.nullable(z.number()),
      judgeSamples: ordinal,
      /**
       * The review of failed attempts, part of how the run was judged: a fingerprint of the reviewer's
       * prompt when it was on (its model is the judge's), null when off. Absent in older runs.
       */
      review: z.optional(z.nullable(z.string())),
    }),
  ),
  settings: RunSettingsSchema,
  scenarios: z.array(ScenarioSchema),
  /** Scenario files kept with `retired: <reason>`: removed on purpose and not played. Absent: none (and in older runs). */
  retired: z.optional(z.array(z.object({ id: z.string(), reason: z.string() }))),
  startedAt: z.string(),
  finishedAt: z.nullable(z.string()),
  state: RunStateSchema,
  /** Set on a run made by `convy-ci replay`: the run whose user lines it sent again. */
  replayOf: optionalText,
  /** Set on a run made by `convy-ci rejudge`: the run whose recorded dialogues were judged again. */
  rejudgeOf: optionalText,
  /** Why an interrupted run stopped, when it stopped itself: its budget would have been passed. */
  stoppedFor: z.optional(z.nullable(z.enum(['budget']))),
  /** Adaptive attempts, or attempts planned from the history: each scenario's attempts and why (adaptive-record.ts). */
  adaptive: z.optional(AdaptiveRecordSchema),
  ci: z.nullable(z.object({ commit: z.nullable(z.string()), branch: z.nullable(z.string()), pullRequest: z.nullable(z.int()) })),
})

/**
 * user_error: failed, but the simulated user's own mistake decided it; out of the pass rate.
 * not_decided: nothing was decided (no check, no claim asked: `--smoke` or `replay --no-judge` on a
 * judge-only scenario); never passed, out of the pass rate.
 */
export const VerdictSchema = z.enum(['passed', 'failed', 'agent_error', 'no_verdict', 'user_error', 'not_decided'])

/** `result`: what the tool gave back, where the protocol carries it (bounded, reply-limit.ts); absent in older runs. */
export const ToolCallSchema = z.object({ name: z.string(), arguments: z.optional(z.unknown()), result: z.optional(z.unknown()) })

export const TurnSchema = z.object({
  role: z.enum(['user', 'agent']),
  text: z.string(),
  /** The agent's own time for an answer; the simulated user's time for a user line. */
  seconds: seconds,
  tokens: z.nullable(TokensSchema),
  /** Set when this step failed; the text is then empty or partial. */
  error: z.nullable(z.string()),
  /** The tools the agent called for this answer, where its protocol shows them; absent when none (and in older runs). */
  toolCalls: z.optional(z.array(ToolCallSchema)),
  /** Seconds from sending the message to the first piece of the answer; only for agents that stream. */
  firstTokenSeconds: z.optional(seconds),
  /**
   * An answer given as several messages, each as the agent sent it, in order; `text` is them joined by
   * blank lines. Absent for an answer of one message (and in older runs).
   */
  messages: z.optional(z.array(z.string())),
})

export const ClaimResultSchema = z.object({
  claim: z.string(),
  /** With judge samples, the majority of `votes`. */
  pass: z.boolean(),
  reason: z.string(),
  /** One decision per judge sample, in the order asked (run --judge-samples, rejudge); absent with one judgement. */
  votes: z.optional(z.array(z.boolean())),
})

export const CheckResultSchema = z.object({
  kind: z.string(),
  value: z.string(),
  pass: z.boolean(),
  /** Which answer matched or broke the check, in words. */
  detail: z.string(),
})

export const ModelUseSchema = z.object({
  model: z.string(),
  calls: count,
  /** Every HTTP try, retries included. */
  tries: count,
  tokens: TokensSchema,
  seconds: seconds,
  costUsd: z.nullable(dollars),
  /** Calls answered from the model cache: no request, no cost. */
  cachedCalls: z.optional(count),
})

/** How the conversation ended; absent in older runs. */
export const EndedBySchema = z.enum(['user_stop', 'max_turns', 'stop_check', 'agent_error', 'model_error', 'interrupted', 'stop_if', 'limit'])

/** Which step of an agent_error failed: set-up (the world could not be made; not the agent's behaviour). Absent: the agent itself. */
export const ErrorKindSchema = z.enum(['setup'])

/** One call to a tool convy-ci served over MCP (play/tools/): evidence convy-ci saw itself, whatever the agent reports. */
export const ServedCallSchema = z.object({
  name: z.string(),
  arguments: z.optional(z.unknown()),
  /** What the tool answered; absent when the call failed. */
  result: z.optional(z.unknown()),
  /** The tool error it answered (a fault, an unknown tool, an answer for no match), in words. */
  error: z.optional(z.string()),
  /** The fault injected on purpose, as the scenario wrote it: `call 1: upstream timeout`. */
  fault: z.optional(z.string()),
  /** Seconds from the attempt's start to the call. */
  at: seconds,
  /** The agent turn (1-based) the call came during; absent when it came between turns. */
  turn: z.optional(ordinal),
})

/** The tools served to one attempt: their address, the seed of random faults, the calls, and the world state at the end. */
export const ServedToolsSchema = z.object({
  url: z.string(),
  seed: z.int(),
  calls: z.array(ServedCallSchema),
  /** Calls past the most recorded per attempt (play/tools/tool-table.ts): answered, not recorded. Absent: none. */
  omitted: z.optional(count),
  state: z.record(z.string(), z.unknown()),
})

/**
 * The review of a failed attempt played by the simulated user: its mistakes, and whether one of them
 * decided the attempt (then the verdict is user_error). A review that failed says why in `error`
 * and changes nothing.
 */
export const UserReviewSchema = z.object({
  model: z.string(),
  mistakes: z.array(SimulatorMistakeSchema),
  decided: z.boolean(),
  reason: z.string(),
  error: z.nullable(z.string()),
})

export const AttemptSchema = z.object({
  scenario: z.string(),
  /** 1-based. */
  attempt: ordinal,
  verdict: VerdictSchema,
  /** Why there is no verdict (agent_error, no_verdict), in words; null otherwise. */
  error: z.nullable(z.string()),
  /** Which step an agent_error came from, when it was not the agent's own (set-up); absent otherwise. */
  errorKind: z.optional(ErrorKindSchema),
  /** The attempt's context as the agent got it (after set-up), masked; absent when empty (and in older runs). */
  context: z.optional(z.record(z.string(), z.unknown())),
  /** The tools convy-ci served to this attempt over MCP; absent when the scenario has none. */
  tools: z.optional(ServedToolsSchema),
  claims: z.array(ClaimResultSchema),
  checks: z.array(CheckResultSchema),
  turns: z.array(TurnSchema),
  endedBy: z.optional(EndedBySchema),
  /** The agent's own tokens over the whole conversation, where it reports them. */
  agentTokens: z.nullable(TokensSchema),
  /** What the agent's reported tokens cost, at its `price` in convy.yml; absent without one. */
  agentCostUsd: z.optional(z.nullable(dollars)),
  /** Set when the attempt failed and was reviewed for the simulated user's mistakes. */
  review: z.optional(UserReviewSchema),
  /**
   * Set on the replay of an attempt the review made user_error: that attempt's number. The replay is
   * the same scenario played once more with a fresh simulated user; its verdict counts.
   */
  replayOf: z.optional(ordinal),
  /** convy-ci's own models: the simulated user, the judge and the reviewer, when they were called. */
  models: z.object({ user: z.nullable(ModelUseSchema), judge: z.nullable(ModelUseSchema), review: z.optional(z.nullable(ModelUseSchema)) }),
  startedAt: z.string(),
  seconds: seconds,
})

export type Tokens = z.infer<typeof TokensSchema>
export type RunState = z.infer<typeof RunStateSchema>
export type Shard = z.infer<typeof ShardSchema>
export type RunSettings = z.infer<typeof RunSettingsSchema>
export type RunManifest = z.infer<typeof RunManifestSchema>
export type Verdict = z.infer<typeof VerdictSchema>
export type ToolCall = z.infer<typeof ToolCallSchema>
export type Turn = z.infer<typeof TurnSchema>
export type ClaimResult = z.infer<typeof ClaimResultSchema>
export type CheckResult = z.infer<typeof CheckResultSchema>
export type ModelUse = z.infer<typeof ModelUseSchema>
export type EndedBy = z.infer<typeof EndedBySchema>
export type UserReview = z.infer<typeof UserReviewSchema>
export type Attempt = z.infer<typeof AttemptSchema>
export type ErrorKind = z.infer<typeof ErrorKindSchema>
export type ServedCall = z.infer<typeof ServedCallSchema>
export type ServedTools = z.infer<typeof ServedToolsSchema>
