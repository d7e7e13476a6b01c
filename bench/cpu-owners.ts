// Whose code a run's CPU went to, from a `--cpu-prof` file of `npm run bench:runner -- --source --profile <dir>`
// (the CLI run from src/ through tsx, so every frame names its file; the bundle's chunks would not).
//
//   node --import tsx bench/cpu-owners.ts <file.cpuprofile> [--from <ms> | --after <function>] [--to <ms>] [--ours]
//
// --after playTurns: from the first sample with that function on its stack (the conversations' part).
//
// Each sample goes to the nearest frame on its stack that belongs to a package (node_modules/<name>) or
// to convy-ci (src/): Node's own code counts for whoever called it (a Response made for the openai
// client is ours, a socket write by undici is undici's). With --ours, convy-ci's share is split by
// function. A sample's time is capped at 2 ms: on a busy machine the process is often descheduled
// between two samples, and the profile would give that wall time to whatever ran last.
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  startTime: number
  samples: number[]
  timeDeltas: number[]
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { from: { type: 'string' }, after: { type: 'string' }, to: { type: 'string' }, ours: { type: 'boolean' } } })
const profile = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as Profile
const to = Number(values.to ?? Infinity)
const CAP_MS = 2
const nodes = new Map(profile.nodes.map((n) => [n.id, n]))
const parentOf = new Map<number, number>()
for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id)
const from = values.after === undefined ? Number(values.from ?? 0) : firstSampleIn(values.after)

/** The time (ms into the profile) of the first sample with `name` on its stack. */
function firstSampleIn(name: string): number {
  let at = profile.startTime
  for (const [i, id] of profile.samples.entries()) {
    at += profile.timeDeltas[i]!
    for (let up: number | undefined = id; up !== undefined; up = parentOf.get(up)) {
      if (nodes.get(up)!.callFrame.functionName === name) return (at - profile.startTime) / 1000
    }
  }
  throw new Error(`no sample has ${name} on its stack`)
}

function ownerOf(node: ProfileNode): string | undefined {
  const url = node.callFrame.url
  if (url.includes('node_modules/')) {
    const parts = url.split('node_modules/').pop()!.split('/')
    return parts[0]!.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
  }
  if (url.includes('/src/')) return values.ours ? `convy-ci ${url.split('/src/').pop()} ${node.callFrame.functionName || '(anonymous)'}` : 'convy-ci (src/)'
  return undefined
}

const sums = new Map<string, number>()
let busy = 0
let at = profile.startTime
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i]!
  const ms = (at - profile.startTime) / 1000
  if (ms < from || ms > to) return
  const leaf = nodes.get(id)!.callFrame.functionName
  if (leaf === '(idle)' || leaf === '(program)' || leaf === '(root)') return
  const dt = Math.min((profile.timeDeltas[i + 1] ?? 0) / 1000, CAP_MS)
  let owner = leaf === '(garbage collector)' ? 'garbage collector' : undefined
  for (let up: number | undefined = id; owner === undefined && up !== undefined; up = parentOf.get(up)) owner = ownerOf(nodes.get(up)!)
  owner ??= 'Node: the event loop, timers, promises (no package on the stack)'
  sums.set(owner, (sums.get(owner) ?? 0) + dt)
  busy += dt
})
console.log(`${busy.toFixed(0)} ms busy between ${from.toFixed(0)} and ${to === Infinity ? 'the end' : to} ms of the profile`)
for (const [owner, ms] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, values.ours ? 40 : 15)) {
  console.log(`${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / busy).toFixed(0).padStart(3)} %  ${owner}`)
}
