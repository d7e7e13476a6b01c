// The cost of serving a scenario's tools (docs/tools.md): loading the MCP SDK once, an attempt's
// server started and closed, one call through the official client, and the memory of attempts'
// servers open at once.  npm run bench:tools [-- --runs N]
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { parseYamlFile } from '../src/base/input/yaml-file.ts'
import { loadSchemaChecker } from '../src/records/scenario/tool-input.ts'
import { parseScenario } from '../src/records/scenario/load-scenarios.ts'
import { openAttemptTools, type AttemptTools } from '../src/play/tools/attempt-tools.ts'
import { median } from './median.ts'

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 200
const YAML = `script: [hi]
checks: [{ contains: hi }]
tools:
  get_order:
    input: { order_id: string }
    answers: [{ when: { order_id: O-17 }, result: { status: late } }, { result: { status: unknown } }]
  create_refund:
    input: { order_id: string }
    sets: { "refunds.{order_id}": requested }
`
let t = performance.now()
await loadSchemaChecker()
await import('../src/play/tools/mcp-server.ts')
console.log(`loading the validator and the MCP server module: ${(performance.now() - t).toFixed(0)} ms (once per process)`)
const scenario = parseScenario(parseYamlFile('s.yml', YAML), 's')
const open = (n: number) => openAttemptTools(scenario, n, { context: () => ({}), at: () => 0, turns: [] }) as Promise<AttemptTools>

const starts: number[] = []
const calls: number[] = []
for (let i = 0; i < runs; i++) {
  t = performance.now()
  const tools = await open(i)
  const started = performance.now() - t
  const client = new Client({ name: 'bench', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(tools.url)))
  t = performance.now()
  await client.callTool({ name: 'get_order', arguments: { order_id: 'O-17' } })
  calls.push(performance.now() - t)
  await client.close()
  t = performance.now()
  await tools.close()
  starts.push(started + performance.now() - t)
}
console.log(`an attempt's server, started and closed: median ${median(starts).toFixed(2)} ms over ${runs}`)
console.log(`one tools/call through the official client (a fresh SDK server per request): median ${median(calls).toFixed(2)} ms`)

globalThis.gc?.()
const before = process.memoryUsage()
const many = await Promise.all(Array.from({ length: 100 }, (_, i) => open(i)))
globalThis.gc?.()
const after = process.memoryUsage()
const signed = (n: number, unit: string) => `${n >= 0 ? '+' : ''}${n.toFixed(1)} ${unit}`
console.log(`100 attempts' servers open at once: ${signed((after.heapUsed - before.heapUsed) / 2 ** 10 / 100, 'KiB')} heap each, ${signed((after.rss - before.rss) / 2 ** 20, 'MiB')} rss in all (the process's own noise is larger)`)
await Promise.all(many.map((tools) => tools.close()))
