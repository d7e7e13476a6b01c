import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, posix } from 'node:path'
import { describe, test } from 'node:test'
import { parse } from 'yaml'
import { INIT_FILES } from '../../src/entry/cli/commands/init-templates.ts'
import { loadProjectConfig, resolveAgent, resolveModels } from '../../src/records/config/load-config.ts'
import type { Environment } from '../../src/records/config/interpolate.ts'
import { convyStep, docPage, readme, readmeSection, yamlBlocks, type Workflow } from '../readme.ts'

// README.md is what a new user follows: its links, its convy.yml and its workflow must work as written.

/** Pages that other branches of issue 24 write; linked from README already, checked once they exist. */
/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const result = new Set<string>()
  for (const [, title] of markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const base = title!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    result.add(count === 0 ? base : `${base}-${count}`)
  }
  return result
}

async function projectWith(convyYml: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'convy-readme-'))
  await writeFile(join(dir, 'convy.yml'), convyYml)
  return join(dir, 'convy.yml')
}

describe('README', () => {
  test('every link in README and docs/, and the one in the convy.yml that init writes, finds its page and heading', async () => {
    const pages = ['README.md', 'CONTRIBUTING.md', ...(await readdir(new URL('../../docs/', import.meta.url))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]
    const root = new URL('../../', import.meta.url)
    const text = async (page: string) => readFile(new URL(page, root), 'utf8')
    let checked = 0
    for (const page of pages) {
      const markdown = (await text(page)).replace(/```[\s\S]*?```/g, '')
      for (const [, target] of markdown.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^https?:/.test(target!)) continue
        const [path, anchor] = target!.split('#') as [string, string | undefined]
        const file = path === '' ? page : posix.normalize(posix.join(posix.dirname(page), path))
        assert.ok(existsSync(new URL(file, root)), `${page} links to ${target}, which does not exist`)
        if (anchor) assert.ok(anchors(await text(file)).has(anchor), `${page} links to ${target}: no such heading in ${file}`)
        checked++
      }
    }
    assert.ok(checked >= 20, `only ${checked} links checked`)
    const fromInit = [...INIT_FILES['convy.yml']!.matchAll(/github\.com\/convy\/action\/blob\/main\/([\w/.-]+)/g)].map((m) => m[1]!)
    assert.deepEqual(fromInit, ['docs/configuration.md'])
    assert.ok(existsSync(new URL(fromInit[0]!, root)))
    assert.ok(!anchors(readme).has('configuration'), 'the anchor check would pass anything')
    assert.ok(readme.split('\n').length <= 400, `README.md has ${readme.split('\n').length} lines`)
  })

  test("the workflow's convy step has every variable that README's convy.yml and init's convy.yml need", async () => {
    const [workflowText] = yamlBlocks(readmeSection('In GitHub Actions')).filter((yaml) => /^jobs:/m.test(yaml))
    const { env, inputs } = convyStep(parse(workflowText!) as Workflow)
    const agents = inputs.agent!.split(/[\s,]+/).filter(Boolean)
    assert.deepEqual(agents, ['support_bot'])
    const need = { user: true, judge: true }

    const [readmeConfig] = yamlBlocks(readmeSection('convy.yml', await docPage('configuration')))
    const fromReadme = await loadProjectConfig(await projectWith(readmeConfig!))
    // Both leave the gateway out: OPENAI_API_KEY and OPENAI_BASE_URL, as the openai SDK reads them.
    const models = resolveModels(fromReadme, env, need)
    assert.equal(models.baseURL, undefined)
    assert.equal(models.apiKey, 'value-of-OPENAI_API_KEY')
    for (const agent of agents) assert.equal(resolveAgent(fromReadme, agent, env).name, agent)

    const fromInit = await loadProjectConfig(await projectWith(INIT_FILES['convy.yml']!))
    assert.equal(resolveModels(fromInit, env, need).apiKey, 'value-of-OPENAI_API_KEY')
    assert.equal(resolveAgent(fromInit, 'bookshop', env).config.protocol, 'module')

    // The same check fails when the workflow leaves a variable out.
    const without = (name: string): Environment => Object.fromEntries(Object.entries(env).filter(([k]) => k !== name))
    assert.throws(() => resolveModels(fromInit, without('OPENAI_API_KEY'), need), /the models need a key: set OPENAI_API_KEY/)
    assert.throws(() => resolveAgent(fromReadme, 'support_bot', without('BOT_TOKEN')), /uses \$\{BOT_TOKEN\}, which is not set/)
  })
})
