import { createHash } from 'node:crypto'
import type { ToolFault } from '../../records/scenario/tools.ts'

/**
 * Faults on purpose. `call: N` hits the Nth call of its tool; `rate: r` each call with chance r, drawn
 * from the attempt's seed; neither, every call. The first fault of the list that hits a call decides
 * it. A draw depends only on the seed, the tool, the call's number and the fault's place, never on
 * the order in which an agent called other tools, so the same attempt draws the same faults when it
 * is played again: on resume, and in the baseline's and the pull request's runs alike (the seed comes
 * from the scenario's fingerprint and the attempt's number, not from the run).
 */
export function attemptSeed(scenarioFingerprint: string, attemptNumber: number): number {
  return parseInt(createHash('sha256').update(`${scenarioFingerprint}#${attemptNumber}`).digest('hex').slice(0, 8), 16)
}

/** A number in [0, 1) for one call of one tool and one fault. */
export function draw(seed: number, tool: string, call: number, fault: number): number {
  return parseInt(createHash('sha256').update(`${seed}:${tool}:${call}:${fault}`).digest('hex').slice(0, 8), 16) / 2 ** 32
}

export interface HitFault {
  fault: ToolFault
  /** As the record shows it: `call 1: error "upstream timeout"`. */
  text: string
}

/** The fault that hits call number `call` (1-based) of `tool`, if any. */
export function faultFor(faults: readonly ToolFault[] | undefined, seed: number, tool: string, call: number): HitFault | null {
  for (const [i, fault] of (faults ?? []).entries()) {
    const hits = fault.call !== undefined ? fault.call === call : fault.rate !== undefined ? draw(seed, tool, call, i) < fault.rate : true
    if (hits) return { fault, text: describeFault(fault) }
  }
  return null
}

export function describeFault(fault: ToolFault): string {
  const when = fault.call !== undefined ? `call ${fault.call}` : fault.rate !== undefined ? `rate ${fault.rate}` : 'every call'
  const effects = [
    ...(fault.delayMs !== undefined ? [`delay ${fault.delayMs} ms`] : []),
    ...(fault.error !== undefined ? [`error ${JSON.stringify(fault.error)}`] : []),
    ...(fault.malformed ? ['malformed'] : []),
  ]
  return `${when}: ${effects.join(', ')}`
}
