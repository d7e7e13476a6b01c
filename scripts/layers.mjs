// The layers of src/, from the top down. A folder may import its own layer and every layer below it,
// never one above: eslint.config.js enforces it on every import, and test/shared/layout.test.ts holds
// each folder README's "May import" to it. docs/architecture.md explains the table.
export const LAYERS = [
  { name: 'entry', says: 'the ways in: the action, the CLI, the library, convy-ci/testing', folders: ['action', 'cli', 'library', 'testing', 'printers', 'options'] },
  { name: 'app', says: 'the use cases both entries call: run, resume, rejudge, compare, publish', folders: ['pipeline', 'publish'] },
  { name: 'play', says: 'playing a run: agents, the simulated user, a conversation, the judge, the review', folders: ['runner', 'review', 'judge', 'simulated-user', 'conversation', 'world', 'tools', 'agents'] },
  { name: 'views', says: 'what people read: report pages, the compare page, the markdown of a comment', folders: ['compare', 'run', 'markdown', 'page'] },
  { name: 'verdict', says: 'a run against its baseline: the comparison and the gate', folders: [] },
  { name: 'adapters', says: 'the outside services convy-ci calls: its models, GitHub', folders: ['github', 'model-client'] },
  { name: 'records', says: 'what a run is made of and keeps: scenarios, configuration, the journal, tallies', folders: ['tally', 'journal', 'config', 'scenario', 'calibration'] },
  { name: 'base', says: 'no knowledge of convy-ci: HTTP, input files, statistics, small shared helpers', folders: ['http', 'input', 'stats', 'shared'] },
]

/** The layer a path under src/ belongs to (`play/judge/checks.ts` → `play`), or undefined for src/index.ts. */
export function layerOf(pathInSrc) {
  const first = pathInSrc.split('/')[0]
  return LAYERS.find((layer) => layer.name === first)
}

/** The layers a file of `layer` must not import: every one above it. */
export function layersAbove(layer) {
  return LAYERS.slice(0, LAYERS.findIndex((l) => l.name === layer.name))
}
