import { proxySecrets } from '../../base/http/proxy.ts'
import type { ProjectConfig } from './load-config.ts'
import { interpolate, type Environment } from './interpolate.ts'

/**
 * Every value the project treats as secret, known before anything runs: what convy.yml's agents and
 * models read from the environment (as a run resolves them: an address gives only its secret-bearing
 * parts), the models' default key (OPENAI_API_KEY) and the proxies' passwords. The action registers
 * them with the runner and masks its own outputs with them, whatever mode it runs in and whichever
 * agents the run selects.
 *
 * Lenient where a run is strict: a variable that is not set is skipped, not an error, so a broken
 * convy.yml is still reported by the run itself, with its line.
 */
export function projectSecrets(config: ProjectConfig, env: Environment): string[] {
  const secrets: string[] = []
  const walk = (node: unknown, path: readonly PropertyKey[]): void => {
    if (typeof node === 'string') {
      if (!node.includes('${')) return
      try {
        secrets.push(...interpolate(config.file, path, node, env).readValues)
      } catch {
        // Unset: nothing was read, nothing to hide.
      }
    } else if (Array.isArray(node)) node.forEach((item, i) => walk(item, [...path, i]))
    else if (node && typeof node === 'object') for (const [key, value] of Object.entries(node)) walk(value, [...path, key])
  }
  walk(config.models, ['models'])
  walk(config.agents, ['agents'])
  if (env.OPENAI_API_KEY) secrets.push(env.OPENAI_API_KEY)
  const proxies = [config.models.proxy, ...Object.values(config.agents).map((agent) => (agent && typeof agent === 'object' ? (agent as { proxy?: unknown }).proxy : undefined))]
  for (const proxy of [undefined, ...proxies]) secrets.push(...proxySecrets(env, typeof proxy === 'string' && !proxy.includes('${') ? proxy : undefined))
  return [...new Set(secrets)]
}
