import type { YamlFile } from '../../base/input/yaml-file.ts'
import type { PreparedAgent } from '../../play/runner/prepare.ts'
import { prepareWorld, type RunWorld } from '../../play/world/prepare-world.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'
import type { Project } from './project.ts'
import { fingerprint } from '../../base/shared/fingerprint.ts'

/**
 * The world of one agent's run (play/world/): the scenarios' `${VAR}`s read, their `{context.*}`s
 * checked, their module set-ups loaded, all before the first attempt. `files` gives messages their
 * lines; a resume, which plays run.json's copies, has none.
 */
export function runWorldOf(project: Project, agent: PreparedAgent, scenarios: readonly Scenario[], canStripTypes: boolean, files?: ReadonlyMap<string, YamlFile>): Promise<RunWorld> {
  return prepareWorld(scenarios, {
    env: project.env,
    projectDir: project.projectDir,
    canStripTypes,
    fetch: agent.fetch,
    agent: { world: agent.world, templates: agent.templates, price: agent.price, config: project.config.file, configPath: ['agents', agent.name] },
    ...(files ? { files } : {}),
  })
}

/**
 * The agent as run.json records it, with the code of its world's set-up and tear-down modules in its
 * fingerprint, so `resume` refuses when that code changed; unchanged when there is none, so runs
 * without module set-ups keep the fingerprint they had.
 */
export function withWorld(agent: PreparedAgent, world: RunWorld): PreparedAgent {
  return world.modules === null ? agent : { ...agent, fingerprint: fingerprint({ agent: agent.fingerprint, world: world.modules }) }
}
