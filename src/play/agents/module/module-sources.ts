import { readFile } from 'node:fs/promises'
import { relative, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * The project's files an agent module is made of when Node imports it itself: the module and, through
 * its relative imports, every file of the project it reaches (installed packages are not followed).
 * Found by reading the import specifiers, resolved as the loader's hook resolves them, so the
 * fingerprint covers the same files whether Node or esbuild loaded the module.
 */
const SPECIFIERS = /\b(?:from|import)\s*\(?\s*(['"])(\.\.?\/[^'"\n]+)\1/g

export async function moduleSources(
  entry: string,
  projectDir: string,
  resolveFile: (specifier: string, parentURL: string) => string | undefined,
): Promise<string[]> {
  const seen = new Set<string>([entry])
  const queue = [entry]
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch {
      continue
    }
    const parent = pathToFileURL(file).href
    for (const match of text.matchAll(SPECIFIERS)) {
      const url = resolveFile(match[2]!, parent)
      if (url === undefined) continue
      const path = fileURLToPath(url)
      const inProject = relative(projectDir, path)
      if (inProject.startsWith('..') || inProject.split(sep).includes('node_modules') || seen.has(path)) continue
      seen.add(path)
      queue.push(path)
    }
  }
  return [...seen].map((path) => relative(projectDir, path).replaceAll('\\', '/'))
}
