/**
 * A served tool's `input:`: a JSON Schema of an object, or the short form `{ order_id: string,
 * note: string?, reason: [late, damaged] }` (a type name per argument, `?` when it may be left out, a
 * list for one of these values). Checked with the MCP SDK's JSON Schema validator (Ajv), loaded only
 * when a scenario has tools: most runs never pay for it.
 */
export type JsonSchema = Record<string, unknown>

const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const

/** A JSON Schema when it reads as one (`type: object`, `properties`, `$schema`); else the short form. */
export function isJsonSchema(input: Readonly<Record<string, unknown>>): boolean {
  return input['type'] === 'object' || 'properties' in input || '$schema' in input
}

/** The short form as a JSON Schema, or what is wrong with one argument (its key and why). */
export function expandInput(input: Readonly<Record<string, unknown>>): { schema: JsonSchema } | { key: string | null; problem: string } {
  if (isJsonSchema(input)) {
    if (input['type'] !== undefined && input['type'] !== 'object') return { key: 'type', problem: 'a tool takes a mapping of arguments: its input schema has `type: object`' }
    return { schema: { type: 'object', ...input } }
  }
  const properties: Record<string, JsonSchema> = {}
  const required: string[] = []
  for (const [name, written] of Object.entries(input)) {
    if (Array.isArray(written)) {
      if (written.length === 0 || written.some((v) => v === null || typeof v === 'object')) return { key: name, problem: 'a list of values gives the ones allowed: write at least one, each text or a number' }
      properties[name] = { enum: written }
      required.push(name)
      continue
    }
    const type = typeof written === 'string' ? written.trim() : ''
    const optional = type.endsWith('?')
    const base = optional ? type.slice(0, -1) : type
    if (!(TYPES as readonly string[]).includes(base)) {
      return { key: name, problem: `\`${name}: ${JSON.stringify(written)}\` is not a type; write one of ${TYPES.join(', ')} (with ? when it may be left out), a list of allowed values, or the whole input as a JSON Schema (\`type: object\`, \`properties:\`)` }
    }
    properties[name] = { type: base }
    if (!optional) required.push(name)
  }
  return { schema: { type: 'object', properties, ...(required.length ? { required } : {}) } }
}

/** Whether a value holds to a schema, and why not. */
export type Validate = (value: unknown) => string | null

export interface SchemaChecker {
  /** Throws, with the validator's words, when the schema itself cannot be compiled. */
  compile(schema: JsonSchema): Validate
}

let checker: SchemaChecker | undefined

/** Loads the validator once; scenarios with tools are checked after it. */
export async function loadSchemaChecker(): Promise<SchemaChecker> {
  if (checker) return checker
  const { AjvJsonSchemaValidator } = await import('@modelcontextprotocol/sdk/validation/ajv')
  const ajv = new AjvJsonSchemaValidator()
  checker = {
    compile(schema) {
      const validator = ajv.getValidator(schema)
      return (value) => {
        const result = validator(value)
        return result.valid ? null : (result.errorMessage ?? 'does not match')
      }
    },
  }
  return checker
}

/** The loaded validator; loadSchemaChecker() must have been awaited first (load-scenarios.ts does). */
export function schemaChecker(): SchemaChecker {
  if (!checker) throw new Error('internal: the JSON Schema validator is used before loadSchemaChecker()')
  return checker
}

/** The schema of one argument, when the input schema names it. */
export function argumentSchema(schema: JsonSchema, name: string): JsonSchema | undefined {
  const properties = schema['properties']
  if (properties === null || typeof properties !== 'object') return undefined
  const property = (properties as Record<string, unknown>)[name]
  return property !== null && typeof property === 'object' ? (property as JsonSchema) : undefined
}

/** Whether the schema names its arguments (`properties`), so an argument it does not name is a mistake. */
export function namesArguments(schema: JsonSchema): boolean {
  return argumentSchema(schema, '') !== undefined || (schema['properties'] !== null && typeof schema['properties'] === 'object' && Object.keys(schema['properties']).length > 0)
}
