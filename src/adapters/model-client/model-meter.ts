import type { ModelUse } from '../../records/journal/records.ts'
import type { CallRecord } from './model-call.ts'

/** Dollars per million tokens, input and output, by model (convy.yml's `models.prices`). */
export type ModelPrices = Readonly<Record<string, readonly [number, number]>>

/** Adds up one role's model calls within an attempt: what attempts.jsonl records as its use. */
export class ModelMeter {
  private calls = 0
  private cached = 0
  private tries = 0
  private input = 0
  private output = 0
  private seconds = 0

  readonly record = (call: CallRecord): void => {
    this.calls++
    if (call.cached) this.cached++
    this.tries += call.tries
    this.input += call.inputTokens
    this.output += call.outputTokens
    this.seconds += call.seconds
  }

  /** Null when the role made no call (or has no model): nothing to record. */
  toUse(model: string | undefined, prices: ModelPrices): ModelUse | null {
    if (this.calls === 0 || model === undefined) return null
    const price = prices[model]
    return {
      model,
      calls: this.calls,
      tries: this.tries,
      tokens: { input: this.input, output: this.output },
      seconds: this.seconds,
      costUsd: price ? (this.input * price[0] + this.output * price[1]) / 1e6 : null,
      cachedCalls: this.cached,
    }
  }
}
