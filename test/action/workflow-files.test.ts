import assert from 'node:assert/strict'
import { readdir, readFile } from 'node:fs/promises'
import { describe, test } from 'node:test'
import { register as registerTsx } from 'tsx/esm/api'

// @actions/workflow-parser imports its JSON schemas without `with { type: 'json' }`, which Node
// refuses (tsx's loader accepts it): the test files run without tsx, so this one registers it before
// importing the parser.
registerTsx()
const { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } = await import('@actions/workflow-parser')
const { parseAction } = await import('@actions/workflow-parser/actions/index')

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
    assert.ok(['ci.yml', 'example.yml', 'example-publish.yml', 'release.yml'].every((f) => files.includes(f)), files.join(', '))
    for (const file of files) assert.deepEqual(await workflowErrors(file, await readFile(new URL(file, dir), 'utf8')), [], file)
    assert.notDeepEqual(await workflowErrors('bad.yml', 'on: push\npermissions: { checks: writ }\njobs: { a: { runs-on: x, steps: [{ run: echo }] } }\n'), [])
  })

  test('a release publishes to npm and moves the major tag, only for a full release', async () => {
    const content = await readFile(new URL('.github/workflows/release.yml', root), 'utf8')
    const parsed = parseWorkflow({ name: 'release.yml', content }, new NoOperationTraceWriter())
    const template = parsed.value ? await convertWorkflowTemplate(parsed.context, parsed.value) : undefined
    assert.deepEqual(parsed.context.errors.getErrors().map((e) => e.message), [])
    assert.deepEqual(template?.events, { release: { types: ['published'] } })
    assert.match(content, /contents: write/)
    const steps = content.split(/\n\s+- /)
    const publish = steps.find((s) => /npm publish/.test(s)) ?? ''
    assert.match(publish, /NODE_AUTH_TOKEN: \$\{\{ secrets\.NPM_TOKEN \}\}/)
    const move = steps.find((s) => /git push --force origin "refs\/tags\/\$major"/.test(s)) ?? ''
    assert.match(move, /if: \$\{\{ !github\.event\.release\.prerelease \}\}/)
    assert.match(move, /major="\$\{GITHUB_REF_NAME%%\.\*\}"/)
    // The tests and the dist check run before anything is published.
    assert.ok(content.indexOf('npm test') > 0 && content.indexOf('npm test') < content.indexOf('npm publish'))
  })

  test('the workflows in README’s "In GitHub Actions" and in docs/action.md', async () => {
    const readme = await readFile(new URL('README.md', root), 'utf8')
    const section = /^## In GitHub Actions\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? ''
    const reference = await readFile(new URL('docs/action.md', root), 'utf8')
    const workflows = [...`${section}${reference}`.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((yaml) => /^jobs:/m.test(yaml))
    assert.ok(workflows.length >= 6, `found ${workflows.length}`)
    for (const [index, content] of workflows.entries()) assert.deepEqual(await workflowErrors(`readme-${index + 1}.yml`, content), [], content)
  })
})
