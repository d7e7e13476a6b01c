import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { basename, extname, join, relative, sep } from 'node:path'
import * as z from '../../base/shared/zod.ts'
import { FileError, InputError, InputErrors } from '../../base/shared/errors.ts'
import { issuesToErrors, parseYamlFile, type YamlFile } from '../../base/input/yaml-file.ts'
import { knownKeysOf } from '../../base/input/schema-keys.ts'
import { compilePattern, loadPatterns } from './pattern.ts'
import { toolsOf, ToolsFileShape, type ToolSets } from './load-tools.ts'
import { loadSchemaChecker } from './tool-input.ts'
import { WorldFileShape, worldOf } from './load-world.ts'
import { CHECK_KINDS, DEFAULT_MAX_TURNS, FATAL_KINDS, type Check, type RetiredScenario, type Scenario } from './scenario.ts'

/** Ids name files and addresses: written in the file or taken from its name, they follow one rule. */
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/
const ID_RULE = 'use letters, digits, ".", "_" and "-", starting with a letter or digit (it names files and URLs)'

/** A scenario is a page of text; a larger file is a mistake or an attack, and parsing it would take gigabytes. */
export const MAX_SCENARIO_FILE_BYTES = 1024 * 1024
/** The user's lines of a script, like max_turns at most. */
export const MAX_SCRIPT_LINES = 100

/** A scenario file as users write it (docs: "A scenario" in README.md). */
const trimmedText = z.string().check(z.trim(), z.minLength(1))
const ScenarioFileSchema = z.strictObject({
  id: z.optional(z.string().check(z.regex(ID, ID_RULE))),
  description: z.optional(trimmedText),
  max_turns: z.optional(z.int().check(z.gte(1), z.lte(100))),
  user: z.optional(trimmedText),
  script: z.optional(z.array(z.nonEmptyText).check(z.minLength(1), z.maxLength(MAX_SCRIPT_LINES))),
  judge: z.optional(z.array(trimmedText).check(z.minLength(1))),
  checks: z.optional(z.array(z.record(z.string(), z.unknown())).check(z.minLength(1))),
  tags: z.optional(z.array(z.nonEmptyText)),
  /** Why the scenario was removed on purpose: the file stays, it is not played, and run.json says so. */
  retired: z.optional(trimmedText),
  ...WorldFileShape,
  ...ToolsFileShape,
})


/**
 * The scenario files under dir. A symbolic link to a file is followed; one to a folder, or a broken
 * one, is named in a warning: silently playing fewer scenarios than the folder shows would mislead.
 */
export async function findScenarioFiles(dir: string, warn: (message: string) => void = () => {}): Promise<string[]> {
  let entries
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true })
  } catch {
    throw new InputError(`${dir}: no scenarios folder here (convy-ci init makes one)`)
  }
  const files: string[] = []
  for (const entry of entries) {
    if (!/\.ya?ml$/i.test(entry.name)) continue
    const path = join(entry.parentPath, entry.name)
    if (entry.isFile()) files.push(path)
    else if (entry.isSymbolicLink()) {
      const target = await stat(path).catch(() => null)
      if (target?.isFile()) files.push(path)
      else warn(`${forMessage(path)}: a symbolic link to ${target ? 'a folder' : 'nothing (broken)'}, skipped`)
    }
  }
  return files.sort()
}

/**
 * Loads and validates every scenario file under `dir`, all of them before anything runs, and reports
 * every problem at once: a user fixing a suite should not discover errors one run at a time.
 */
export async function loadScenarios(dir: string, projectDir: string, warn?: (message: string) => void, options: SuiteOptions = {}): Promise<Scenario[]> {
  return (await loadSuite(dir, projectDir, warn, options)).scenarios
}

/** The scenarios to play, and those retired on purpose (`retired: <reason>`), which run.json lists and no one plays. */
export interface Suite {
  scenarios: Scenario[]
  retired: RetiredScenario[]
  /** Each scenario's file by scenario id, for the lines of problems found later (play/world/prepare-world.ts). */
  files: Map<string, YamlFile>
}

/** What the scenario files may refer to in convy.yml: its named tool sets (load-tools.ts `parseToolSets`). */
export interface SuiteOptions {
  toolSets?: ToolSets
}

export async function loadSuite(dir: string, projectDir: string, warn?: (message: string) => void, options: SuiteOptions = {}): Promise<Suite> {
  const paths = await findScenarioFiles(dir, warn)
  const problems: InputError[] = []
  const scenarios: Scenario[] = []
  const retired: RetiredScenario[] = []
  const firstFileOfId = new Map<string, string>()
  const files = new Map<string, YamlFile>()
  let turnAt = performance.now()
  for (const path of paths) {
    const name = forMessage(relative(projectDir, path).split(sep).join('/'))
    // Files are read synchronously (readScenarioText); the loop still gets a turn every few
    // milliseconds, so what waits on it (the gateway check in flight, Ctrl+C) is not held up.
    if (performance.now() - turnAt > LOOP_TURN_MS) {
      await new Promise((resolve) => setImmediate(resolve))
      turnAt = performance.now()
    }
    try {
      const text = readScenarioText(path, name)
      // The pattern engine is loaded when a file may hold a regex: check, to compile it now.
      if (text.includes('regex')) await loadPatterns()
      // Likewise the JSON Schema validator, for a file that may serve tools.
      if (text.includes('tools')) await loadSchemaChecker()
      const yaml = parseYamlFile(name, text)
      const scenario = parseScenario(yaml, basename(path, extname(path)), options.toolSets)
      const earlier = firstFileOfId.get(scenario.id)
      if (earlier !== undefined) {
        problems.push(new FileError(name, yaml.lineOf(['id']) ?? 1, `scenario id "${scenario.id}" is already used by ${earlier}; ids must be unique`))
        continue
      }
      firstFileOfId.set(scenario.id, name)
      files.set(scenario.id, yaml)
      const reason = retiredReason(yaml)
      if (reason === null) scenarios.push(scenario)
      else retired.push({ id: scenario.id, reason })
    } catch (error) {
      if (error instanceof InputErrors) problems.push(...error.problems)
      else if (error instanceof InputError) problems.push(error)
      else throw error
    }
  }
  if (problems.length) throw problems.length === 1 ? problems[0]! : new InputErrors(problems)
  if (scenarios.length === 0) throw new InputError(`${relative(projectDir, dir) || dir}: no scenario files (*.yml) found${retired.length ? ` that are not retired` : ''}`)
  return { scenarios, retired, files }
}

const LOOP_TURN_MS = 10

/** The reason of a `retired:` entry (already validated by parseScenario), or null. */
function retiredReason(file: YamlFile): string | null {
  const value = (file.data as Record<string, unknown>)['retired']
  return typeof value === 'string' ? value.trim() : null
}

/**
 * A scenario file's text, read synchronously: files of a page each, read one after another before the
 * run starts, where a promise and a trip through the thread pool per file cost more than the reading
 * (200 files: bench/runner.ts's start-up). Only regular files come here (findScenarioFiles).
 */
function readScenarioText(path: string, name: string): string {
  const fd = openSync(path, 'r')
  try {
    const { size } = fstatSync(fd)
    if (size > MAX_SCENARIO_FILE_BYTES) {
      throw new FileError(name, 1, `${(size / 2 ** 20).toFixed(1)} MiB; a scenario file may be at most ${MAX_SCENARIO_FILE_BYTES / 2 ** 20} MiB`)
    }
    return readFileSync(fd, 'utf8')
  } finally {
    closeSync(fd)
  }
}

export function parseScenario(file: YamlFile, defaultId: string, toolSets: SuiteOptions['toolSets'] = {}): Scenario {
  if (file.data === null || typeof file.data !== 'object' || Array.isArray(file.data)) {
    throw new FileError(file.name, 1, 'a scenario is a mapping of keys (id, user, judge, script, checks, …)')
  }
  const data = file.data as Record<string, unknown>
  const { raw, problems } = parseKeys(file, data)
  if (data.user === undefined && data.script === undefined) {
    problems.push(new FileError(file.name, 1, 'needs `user` (instructions for the simulated user) or `script` (the user\'s messages), or both'))
  }
  if (data.judge === undefined && data.checks === undefined && data.end_state === undefined) {
    problems.push(new FileError(file.name, 1, 'needs `judge` (claims for the judge), `checks` or `end_state` (decided by convy-ci), or several'))
  }
  const checks = (raw.checks ?? []).flatMap((entry, index) => {
    try {
      return [parseCheck(file, entry, index)]
    } catch (error) {
      problems.push(error as FileError)
      return []
    }
  })
  const tools = toolsOf(file, raw, toolSets)
  problems.push(...tools.problems)
  if (data.id === undefined && !ID.test(defaultId)) {
    problems.push(new FileError(file.name, 1, `the file name gives the id "${forMessage(defaultId)}", which is not a valid id: ${ID_RULE}; rename the file or write \`id:\``))
  }
  if (problems.length) throw collect(problems)
  return {
    id: raw.id ?? defaultId,
    file: file.name,
    ...(raw.description === undefined ? {} : { description: raw.description }),
    maxTurns: raw.max_turns ?? DEFAULT_MAX_TURNS,
    ...(raw.user === undefined ? {} : { user: raw.user }),
    ...(raw.script === undefined ? {} : { script: raw.script }),
    judge: raw.judge ?? [],
    checks,
    tags: raw.tags ?? [],
    ...worldOf(raw),
    ...tools.value,
  }
}

/**
 * The file's keys, checked. A key that is unknown or wrong is a problem, and the keys that are right
 * are still read, so that one mistake does not hide the file's others.
 */
function parseKeys(file: YamlFile, data: Record<string, unknown>): { raw: z.infer<typeof ScenarioFileSchema>; problems: FileError[] } {
  const parsed = ScenarioFileSchema.safeParse(data, z.PARSE_FEW)
  if (parsed.success) return { raw: parsed.data, problems: [] }
  const problems = issuesToErrors(file, parsed.error.issues, [], knownKeysOf(ScenarioFileSchema, data))
  const wrong = new Set(parsed.error.issues.flatMap((issue) => (issue.code === 'unrecognized_keys' ? issue.keys : issue.path.slice(0, 1).map(String))))
  const rest = ScenarioFileSchema.safeParse(Object.fromEntries(Object.entries(data).filter(([key]) => !wrong.has(key))), z.PARSE_FEW)
  return { raw: rest.success ? rest.data : {}, problems }
}

function parseCheck(file: YamlFile, raw: Record<string, unknown>, index: number): Check {
  const path = ['checks', index]
  const { fatal, args, ...entry } = raw
  const keys = Object.keys(entry)
  const known = keys.filter((k): k is Check['kind'] => (CHECK_KINDS as readonly string[]).includes(k))
  if (keys.length !== 1 || known.length !== 1) {
    const unknown = keys.find((k) => !known.includes(k as Check['kind']))
    const detail = unknown !== undefined ? `unknown check \`${unknown}\`` : keys.length === 0 ? 'an empty check' : `one check per entry, found ${keys.join(' and ')}`
    throw new FileError(file.name, file.lineOf(path), `checks.${index}: ${detail}; a check is one of ${CHECK_KINDS.map((k) => `\`${k}: …\``).join(', ')} (and may add \`fatal: true\`)`)
  }
  const kind = known[0]!
  const value = entry[kind]
  if (value === null || value === undefined || value === '') {
    throw new FileError(file.name, file.lineOf([...path, kind]), `checks.${index}.${kind} is empty (an unquoted # starts a YAML comment: write "${kind}: '#2'")`)
  }
  if (args !== undefined && kind !== 'tool_called') {
    throw new FileError(file.name, file.lineOfKey(path, 'args'), `checks.${index}: \`args\` goes with \`tool_called\` (the arguments a call to that tool had)`)
  }
  if (kind === 'tool_order' || kind === 'max_tool_calls') {
    if (fatal !== undefined && fatal !== false) throw fatalError(file, path, index, kind)
    return toolCountCheck(file, [...path, kind], index, kind, value)
  }
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw new FileError(file.name, file.lineOf([...path, kind]), `checks.${index}.${kind}: expected text`)
  }
  const text = String(value)
  if (kind === 'regex') {
    try {
      compilePattern(text)
    } catch (error) {
      throw new FileError(file.name, file.lineOf([...path, kind]), `checks.${index}.regex is not a pattern convy-ci can run: ${(error as Error).message}`)
    }
  }
  if (kind === 'tool_called' && args !== undefined) {
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
      throw new FileError(file.name, file.lineOf([...path, 'args']), `checks.${index}.args: expected a mapping of argument names to values (\`args: { order_id: "1234" }\`)`)
    }
    if (fatal !== undefined && fatal !== false) throw fatalError(file, path, index, kind)
    return { kind, value: text, args: args as Record<string, unknown> }
  }
  if (fatal === undefined || fatal === false) return { kind, value: text }
  if (fatal !== true) throw new FileError(file.name, file.lineOf([...path, 'fatal']), `checks.${index}.fatal: expected true or false`)
  if (kind !== 'not_contains' && kind !== 'tool_not_called') throw fatalError(file, path, index, kind)
  return { kind, value: text, fatal }
}

function fatalError(file: YamlFile, path: (string | number)[], index: number, kind: string): FileError {
  return new FileError(
    file.name,
    file.lineOf([...path, 'fatal']),
    `checks.${index}: \`fatal\` ends the attempt at the answer that breaks the check, which only ${FATAL_KINDS.map((k) => `\`${k}\``).join(' and ')} can do; \`${kind}\` is decided on the whole conversation`,
  )
}

/** `tool_order: [a, b, …]` (two names or more) and `max_tool_calls: N` (a whole number, 0 or more). */
function toolCountCheck(file: YamlFile, path: (string | number)[], index: number, kind: 'tool_order' | 'max_tool_calls', value: unknown): Check {
  const at = (detail: string) => new FileError(file.name, file.lineOf(path), `checks.${index}.${kind}: ${detail}`)
  if (kind === 'max_tool_calls') {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw at(`expected a whole number, 0 or more (the most tool calls an attempt may make), not ${JSON.stringify(value)}`)
    return { kind, value }
  }
  const names = Array.isArray(value) ? value.map((name) => (typeof name === 'number' ? String(name) : name)) : null
  if (names === null || names.some((name) => typeof name !== 'string' || name === '')) throw at('expected a list of tool names, in the order they must be called (`tool_order: [get_order, refund]`)')
  if (names.length < 2) throw at('an order needs two tools or more; for one, write `tool_called:`')
  return { kind, value: names as string[] }
}

/** A file name may hold anything, control and bidirectional characters included: shown escaped. */
function forMessage(name: string): string {
  return JSON.stringify(name).slice(1, -1).replace(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

function collect(problems: FileError[]): InputError {
  return problems.length === 1 ? problems[0]! : new InputErrors(problems)
}
