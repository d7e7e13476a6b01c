import type * as z from '../shared/zod.ts'

/**
 * The keys a schema allows at a path of the data it checks, for "did you mean" hints at any depth
 * (`agents.bot.tls.caa` → `ca`). Read from the schema itself, so a key added to a schema is hinted
 * without a list kept beside it. Wrappers (optional, default, nullable) are looked through; of a
 * union, the option the data chose (its discriminator, else the object sharing most keys with it).
 */
interface Def {
  type: string
  shape?: Record<string, z.core.$ZodType>
  innerType?: z.core.$ZodType
  options?: z.core.$ZodType[]
  discriminator?: string
  element?: z.core.$ZodType
  valueType?: z.core.$ZodType
  in?: z.core.$ZodType
}

const defOf = (schema: z.core.$ZodType): Def => schema._zod.def as unknown as Def
const WRAPPERS = new Set(['optional', 'default', 'nullable', 'nonoptional', 'readonly', 'catch', 'prefault'])

function unwrap(schema: z.core.$ZodType, data: unknown): z.core.$ZodType | undefined {
  let current: z.core.$ZodType | undefined = schema
  for (let guard = 0; current && guard < 20; guard++) {
    const def = defOf(current)
    if (WRAPPERS.has(def.type)) current = def.innerType
    else if (def.type === 'pipe') current = def.in
    else if (def.type === 'union') current = chosenOption(def, data)
    else return current
  }
  return current
}

function chosenOption(def: Def, data: unknown): z.core.$ZodType | undefined {
  const objects = (def.options ?? []).map((option) => unwrap(option, data)).filter((option): option is z.core.$ZodType => option !== undefined && defOf(option).type === 'object')
  if (objects.length === 0) return undefined
  const record = data !== null && typeof data === 'object' ? (data as Record<string, unknown>) : {}
  if (def.discriminator !== undefined) {
    const value = record[def.discriminator]
    const chosen = objects.find((option) => {
      const field = defOf(option).shape?.[def.discriminator!]
      return field !== undefined && (field._zod.def as { values?: unknown[] }).values?.includes(value)
    })
    if (chosen) return chosen
  }
  const shared = (option: z.core.$ZodType) => Object.keys(record).filter((key) => key in (defOf(option).shape ?? {})).length
  return objects.reduce((best, option) => (shared(option) > shared(best) ? option : best))
}

export function schemaKeysAt(schema: z.core.$ZodType, data: unknown, path: readonly PropertyKey[]): string[] {
  let node = unwrap(schema, data)
  let value = data
  for (const segment of path) {
    if (!node) return []
    const def = defOf(node)
    const child = def.type === 'object' ? def.shape?.[String(segment)] : def.type === 'record' ? def.valueType : def.type === 'array' ? def.element : undefined
    if (!child) return []
    value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[segment as string] : undefined
    node = unwrap(child, value)
  }
  return node && defOf(node).type === 'object' ? Object.keys(defOf(node).shape ?? {}) : []
}

/** `issuesToErrors`' `knownKeys` for data checked by `schema` and found under `basePath` of its file. */
export function knownKeysOf(schema: z.core.$ZodType, data: unknown, basePath: readonly PropertyKey[] = []): (path: readonly PropertyKey[]) => string[] {
  return (path) => schemaKeysAt(schema, data, path.slice(basePath.length))
}
