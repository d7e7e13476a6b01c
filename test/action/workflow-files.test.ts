import assert from 'node:assert/strict'
import { readdir, readFile } from 'node:fs/promises'
import { describe, test } from 'node:test'
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser'
import { parseAction } from '@actions/workflow-parser/actions/index'

// action.yml, every workflow of the repository and the workflows the README shows, through GitHub's
// own parser (the one behind the Actions language server).

const root = new URL('../../', import.meta.url)

async function workflowErrors(name: string, content: string): Promise<string[]> {
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter())
  if (parsed.value) await convertWorkflowTemplate(parsed.context, parsed.value)
  return parsed.context.errors.getErrors().map((e) => e.message)
}

describe('workflow files', () => {
  test('action.yml is a valid node24 action', async () => {
    const content = await readFile(new URL('action.yml', root), 'utf8')
    const parsed = parseAction({ name: 'action.yml', content }, new NoOperationTraceWriter())
    assert.deepEqual(parsed.context.errors.getErrors().map((e) => e.message), [])
    // The parser is not lenient: it would catch a runtime GitHub does not have.
    const wrong = parseAction({ name: 'action.yml', content: content.replace('using: node24', 'using: node99') }, new NoOperationTraceWriter())
    assert.notDeepEqual(wrong.context.errors.getErrors(), [])
  })

  test('every workflow in .github/workflows', async () => {
    const dir = new URL('.github/workflows/', root)
    const files = (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f))
    assert.ok(files.includes('ci.yml') && files.includes('example.yml') && files.includes('example-publish.yml'))
    for (const file of files) assert.deepEqual(await workflowErrors(file, await readFile(new URL(file, dir), 'utf8')), [], file)
    assert.notDeepEqual(await workflowErrors('bad.yml', 'on: push\npermissions: { checks: writ }\njobs: { a: { runs-on: x, steps: [{ run: echo }] } }\n'), [])
  })

  test('the workflows in the README’s "In GitHub Actions"', async () => {
    const readme = await readFile(new URL('README.md', root), 'utf8')
    const section = /^## In GitHub Actions\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? ''
    const workflows = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((yaml) => /^jobs:/m.test(yaml))
    assert.ok(workflows.length >= 3, `found ${workflows.length}`)
    for (const [index, content] of workflows.entries()) assert.deepEqual(await workflowErrors(`readme-${index + 1}.yml`, content), [], content)
  })
})
