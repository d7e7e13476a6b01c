import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'

/** README.md's and docs/' parts that tests play as written: their sections, YAML blocks and the workflow's convy step. */
export const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8')

/** A page of docs/, e.g. `configuration` for docs/configuration.md. */
export async function docPage(name: string): Promise<string> {
  return readFile(new URL(`../docs/${name}.md`, import.meta.url), 'utf8')
}

/** The section under a `## title` heading of README, or of another page given as `text`. */
export function readmeSection(title: string, text: string = readme): string {
  const start = text.indexOf(`\n## ${title}\n`)
  assert.ok(start >= 0, `the page has no section "${title}"`)
  const end = text.indexOf('\n## ', start + 1)
  return text.slice(start, end === -1 ? undefined : end)
}

export function yamlBlocks(text: string): string[] {
  return [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!)
}

export interface WorkflowStep {
  uses?: string
  with?: Record<string, unknown>
  env?: Record<string, string>
}
export interface Workflow {
  env?: Record<string, string>
  jobs: Record<string, { env?: Record<string, string>; steps: WorkflowStep[] }>
}

/**
 * The workflow's convy step, with the environment convy-ci sees in it: the workflow's, the job's
 * and the step's `env:`. A secret becomes `value-of-<NAME>` (a repository has it set); any other
 * expression fails the test, as it could not be evaluated here.
 */
export function convyStep(workflow: Workflow): { env: Record<string, string>; inputs: Record<string, string> } {
  for (const job of Object.values(workflow.jobs)) {
    const step = job.steps.find((s) => s.uses?.startsWith('convy/action@'))
    if (!step) continue
    const evaluate = (name: string, value: unknown): string => {
      const secret = /^\$\{\{\s*secrets\.(\w+)\s*\}\}$/.exec(String(value))
      assert.ok(secret || !String(value).includes('${{'), `cannot evaluate ${name}: ${value}`)
      return secret ? `value-of-${secret[1]}` : String(value)
    }
    const env = Object.fromEntries(Object.entries({ ...workflow.env, ...job.env, ...step.env }).map(([k, v]) => [k, evaluate(k, v)]))
    const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, evaluate(k, v)]))
    return { env, inputs }
  }
  assert.fail('the workflow has no convy/action step')
}
