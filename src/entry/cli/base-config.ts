import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { projectRules, rulesOfStep, stricterRules, type RulesDecided } from '../../app/publish/gate-rules.ts'
import { errorMessage, InputError } from '../../base/shared/errors.ts'

/**
 * `--base-config FILE` (`publish`, `compare`): the base branch's convy.yml held against this
 * project's (issue 38) outside GitHub, where no base commit can be read: the stricter min_kappa
 * decides, and the base's judge (its model and models.base_url) is the one the gate judges with
 * (app/pipeline/settle-judge.ts). A file that cannot be read is exit 2 before anything runs.
 */
export async function baseConfigRules(ctx: { cwd: string }, config: string, baseConfig: string): Promise<RulesDecided> {
  const read = async (file: string, must: boolean) => {
    try {
      return await readFile(resolve(ctx.cwd, file), 'utf8')
    } catch (error) {
      if (must) throw new InputError(`--base-config ${file}: ${errorMessage(error)}`)
      return null
    }
  }
  const own = rulesOfStep({}, await read(config, false))
  const base = { ...own, ...projectRules(await read(baseConfig, true)) }
  return stricterRules(own, base, `the base branch (${baseConfig})`)
}
