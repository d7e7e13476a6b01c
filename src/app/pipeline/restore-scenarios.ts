import { loadToolSets } from '../../records/scenario/load-tools.ts'
import { loadSuite } from '../../records/scenario/load-scenarios.ts'
import { restoreScenarioCopies } from '../../records/journal/scenario-copies.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'
import type { Output } from './context.ts'
import type { Project } from './project.ts'

/**
 * The scenarios a resume or a replay plays: run.json's copies, masked where they held a secret or a
 * `redact:` match (records/journal/scenario-copies.ts), read again from the scenario files where
 * those still say what the copies were made from, so nothing the user wrote is lost. Scenario files
 * that no longer load leave the copies as they are.
 */
export async function restoreScenarios(project: Project, copies: readonly Scenario[], stderr: Output): Promise<Scenario[]> {
  if (!copies.some((copy) => JSON.stringify(copy).includes('***'))) return [...copies]
  let files: Map<string, Scenario>
  try {
    const toolSets = await loadToolSets(project.config.file, project.config.tools)
    files = new Map((await loadSuite(project.scenariosDir, project.projectDir, undefined, { toolSets })).scenarios.map((s) => [s.id, s]))
  } catch {
    files = new Map()
  }
  const restored = restoreScenarioCopies(copies, files)
  if (restored.masked.length > 0) stderr.write(`warning: ${restored.masked.join(', ')}: played as run.json recorded ${restored.masked.length === 1 ? 'it' : 'them'}, with masked texts: the scenario file${restored.masked.length === 1 ? ' changed or is gone' : 's changed or are gone'}\n`)
  return restored.scenarios
}
