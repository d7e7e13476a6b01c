import { allProblems, FileError } from '../../base/shared/errors.ts'
import type { Redaction } from '../../base/shared/secrets.ts'
import type { YamlFile } from '../../base/input/yaml-file.ts'
import { compileSpanPattern, loadPatterns, PatternSyntaxError, type SpanPattern } from '../scenario/pattern.ts'

/**
 * convy.yml's `redact:`: patterns (card numbers, e-mail addresses, a customer id) whose every match is
 * masked in every record and output, as the secrets are (base/shared/secrets.ts), whatever wrote it:
 * the agent, the simulated user, the judge, a scenario. Patterns run on RE2's algorithm, as `regex:`
 * checks do (records/scenario/pattern.ts): linear in the text whatever the pattern, case-insensitive,
 * no lookaround or backreferences. A pattern that cannot be compiled, or that matches the empty text
 * (it would mask between every two characters), is an input error naming convy.yml's line.
 *
 * A pattern is matched on the text as written and, where the text holds escapes or characters that
 * show as nothing, on the text as a reader sees it (the same view the secrets are searched in).
 */
export async function parseRedact(file: YamlFile, written: unknown): Promise<Redaction | undefined> {
  if (written === undefined || written === null) return undefined
  if (!Array.isArray(written)) throw new FileError(file.name, file.lineOf(['redact']), 'redact: is a list of patterns, one per line (e.g. - \'\\b\\d{4}(?:[ -]?\\d{4}){3}\\b\')')
  if (written.length === 0) return undefined
  await loadPatterns()
  const patterns: SpanPattern[] = []
  const problems: FileError[] = []
  written.forEach((source: unknown, i) => {
    const line = file.lineOf(['redact', i])
    if (typeof source !== 'string' || source.length === 0) return problems.push(new FileError(file.name, line, `redact[${i}]: a pattern is a non-empty text (quote it in YAML)`))
    try {
      const pattern = compileSpanPattern(source)
      if (pattern.matchesEmpty) return problems.push(new FileError(file.name, line, `redact[${i}]: \`${source}\` matches the empty text, so it would mask between every two characters; make it need at least one character (\`+\` rather than \`*\`)`))
      patterns.push(pattern)
    } catch (error) {
      if (!(error instanceof PatternSyntaxError)) throw error
      problems.push(new FileError(file.name, line, `redact[${i}]: \`${source}\` is not a pattern convy-ci can run: ${error.message}`))
    }
  })
  if (problems.length > 0) throw allProblems(problems)
  return { patterns: patterns.length, spans: (text) => patterns.flatMap((pattern) => pattern.spans(text)) }
}
