import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { stringify } from 'yaml'
import { resolveAgent, type ProjectConfig } from '../../src/records/config/load-config.ts'
import { parseYamlFile } from '../../src/base/input/yaml-file.ts'
import { parseScenario } from '../../src/records/scenario/load-scenarios.ts'
import { InputError, InputErrors } from '../../src/base/shared/errors.ts'
import { createMask, encodedForms, MASKED } from '../../src/base/shared/secrets.ts'

/**
 * Properties, each checked on RUNS generated cases (fast-check prints the seed of a failure, so it
 * can be replayed). docs/reliability.md reports these counts.
 */
export const RUNS = 500

const secret = fc.string({ unit: 'grapheme', minLength: 4, maxLength: 40 }).filter((s) => s.length >= 4)
const text = fc.string({ unit: 'grapheme', maxLength: 60 })

describe('masking (properties)', () => {
  test('no form of a secret survives, wherever it sits in the text', () => {
    fc.assert(
      fc.property(secret, text, text, fc.nat(), (value, before, after, pick) => {
        const forms = encodedForms(value).filter((f) => f.length >= 4)
        const form = forms[pick % forms.length]!
        const masked = createMask([value])(`${before}${form}${after}`)
        for (const f of forms) assert.ok(!masked.includes(f), `${JSON.stringify(f)} in ${JSON.stringify(masked)}`)
      }),
      { numRuns: RUNS },
    )
  })

  test('a secret inside base64 data cannot be decoded back, at any offset', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 8, maxLength: 40 }), fc.uint8Array({ maxLength: 10 }), fc.uint8Array({ maxLength: 10 }), (value, before, after) => {
        const encoded = Buffer.concat([before, Buffer.from(value), after]).toString('base64')
        const masked = createMask([value])(encoded)
        assert.ok(masked.includes(MASKED))
        // Whatever the stars stood for, the rest does not hold the secret's bytes.
        for (const filler of ['A', '/']) assert.ok(!Buffer.from(masked.replaceAll('*', filler), 'base64').includes(Buffer.from(value)))
      }),
      { numRuns: RUNS },
    )
  })

  test('text without a secret is left as it is; masking twice changes nothing more', () => {
    fc.assert(
      fc.property(secret, text, (value, other) => {
        fc.pre(!encodedForms(value).some((f) => f.length >= 4 && other.includes(f)))
        const mask = createMask([value])
        assert.equal(mask(other), other)
        const once = mask(`${other}${value}${other}`)
        assert.equal(mask(once), once)
      }),
      { numRuns: RUNS },
    )
  })
})

describe('the parsers (properties)', () => {
  const classified = (error: unknown) => error instanceof InputError || error instanceof InputErrors

  test('any text as a scenario file: a scenario with a valid id, or an input error (exit 2), never a crash', async () => {
    const yamlish = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.anything({ maxDepth: 3 }).map((v) => String(stringify(v) ?? "")),
      fc.record({ id: fc.string(), user: fc.string(), judge: fc.array(fc.string()), script: fc.array(fc.string()), checks: fc.array(fc.dictionary(fc.constantFrom('contains', 'regex', 'not_contains', 'x'), fc.string())) }, { requiredKeys: [] }).map((v) => stringify(v)),
    )
    await fc.assert(
      fc.asyncProperty(yamlish, fc.string({ maxLength: 20 }), async (source, fileName) => {
        try {
          const scenario = parseScenario(parseYamlFile('s.yml', source), fileName)
          assert.match(scenario.id, /^[A-Za-z0-9][A-Za-z0-9._-]*$/)
        } catch (error) {
          assert.ok(classified(error), `${String(error)}`)
        }
      }),
      { numRuns: RUNS },
    )
  })

  test('any agent entry and environment: a configuration or an input error; a value in a URL stays one query value', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 30 }), fc.anything({ maxDepth: 2 }), async (value, extra) => {
        const source = `agents:\n  bot:\n    url: \${BASE}/chat?key=\${KEY}&x=1\n    body: { message: "{text}" }\n    reply: answer\n    extra: ${JSON.stringify(JSON.stringify(extra) ?? null)}\n`
        const file = parseYamlFile('convy.yml', source)
        const config: ProjectConfig = { file, projectDir: '/p', models: {}, agents: (file.data as { agents: Record<string, unknown> }).agents }
        try {
          resolveAgent(config, 'bot', { BASE: 'http://127.0.0.1:8080', KEY: value })
          assert.fail('extra is not a key of a JSON agent')
        } catch (error) {
          assert.ok(classified(error), String(error))
        }
        delete (config.agents.bot as Record<string, unknown>).extra
        const resolved = resolveAgent(config, 'bot', { BASE: 'http://127.0.0.1:8080', KEY: value })
        const url = new URL((resolved.config as { url: string }).url)
        assert.equal(url.searchParams.get('key'), value)
        assert.equal(url.searchParams.get('x'), '1')
        assert.equal(url.host, '127.0.0.1:8080')
      }),
      { numRuns: RUNS },
    )
  })
})
