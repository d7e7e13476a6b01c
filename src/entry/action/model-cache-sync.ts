import { stat } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { errorMessage } from '../../base/shared/errors.ts'
import { modelCacheKeys } from './cache-keys.ts'
import type { ActionDeps } from './deps.ts'

/**
 * Carries the model cache (`<project>/.convy/cache/`) from one workflow run to the next through the
 * Actions cache: restored before the run when the run reads it, saved after when it writes it and
 * the Actions cache may be written. Every problem is a warning: a cold cache costs money, never the
 * verdict.
 */
export interface ModelCacheSync {
  save(): Promise<void>
}

export function modelCacheDir(deps: ActionDeps): string {
  return join(dirname(resolve(deps.context.cwd, deps.inputs.config)), '.convy', 'cache')
}

export async function restoreModelCache(deps: ActionDeps): Promise<ModelCacheSync> {
  const { inputs, github, log, cache } = deps
  const mode = inputs.cache
  const keys = modelCacheKeys(inputs.artifactName, inputs.agents, inputs.shard, github)
  const dir = modelCacheDir(deps)
  const idle: ModelCacheSync = { save: async () => {} }
  if (mode === 'off') return idle
  if (!cache.available()) {
    log.info(`the model cache stays on this runner: no Actions cache service here (cache: ${mode})`)
    return idle
  }
  if (mode === 'read' || mode === 'readwrite') {
    try {
      const restoredKey = await cache.restore([dir], keys.key, keys.restoreKeys)
      log.info(restoredKey ? `model cache restored from ${restoredKey}` : `no model cache yet for ${keys.restoreKeys.join(' or ')}: every model call is made`)
    } catch (error) {
      log.warning(`the model cache was not restored, so every model call is made: ${errorMessage(error)}`)
    }
  }
  const writes = mode === 'write' || mode === 'readwrite'
  return {
    save: async () => {
      if (!writes) return
      if (github.cacheReadOnlyReason) {
        log.info(`the model cache is not saved: ${github.cacheReadOnlyReason}`)
        return
      }
      if (!(await exists(dir))) {
        log.info('the model cache is not saved: no model was called')
        return
      }
      try {
        if (await cache.save([dir], keys.key)) log.info(`model cache saved as ${keys.key}`)
        else log.warning(`the model cache was not saved as ${keys.key} (see above); the next run calls the models again`)
      } catch (error) {
        log.warning(`the model cache was not saved: ${errorMessage(error)}`)
      }
    },
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  )
}
