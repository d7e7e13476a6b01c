import { readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Plugin } from 'esbuild'
import { isConvyCiSpecifier } from './public-api.ts'

/** esbuild plugins that make a bundled agent module behave as if Node had imported its files directly. */
export const API_NAMESPACE = 'convy-ci-api'

/** `import … from 'convy-ci'` (and `convy-ci/…`) becomes a module that re-exports the running API. */
export function convyCiApiPlugin(apiModuleSource: string): Plugin {
  return {
    name: 'convy-ci-api',
    setup(build) {
      build.onResolve({ filter: /^convy-ci(\/|$)/ }, (args) =>
        isConvyCiSpecifier(args.path) ? { path: 'convy-ci', namespace: API_NAMESPACE } : undefined,
      )
      build.onLoad({ filter: /.*/, namespace: API_NAMESPACE }, () => ({ contents: apiModuleSource, loader: 'js' }))
    },
  }
}

/**
 * The bundle lives in .convy/build/, so `import.meta.url` would point there and an agent reading a
 * file next to its source (`new URL('./prompt.md', import.meta.url)`) would miss it. Each file that
 * uses `import.meta` gets its own location defined in, by esbuild's parser rather than by text
 * replacement, so strings and comments stay as written.
 */
export function moduleLocationPlugin(): Plugin {
  return {
    name: 'convy-ci-module-location',
    setup(build) {
      build.onLoad({ filter: /\.m?[jt]s$/ }, async (args) => {
        if (args.namespace !== 'file') return undefined
        const source = await readFile(args.path, 'utf8')
        if (!source.includes('import.meta')) return undefined
        const loader = /\.m?ts$/.test(args.path) ? 'ts' : 'js'
        const { code } = await build.esbuild.transform(source, {
          loader,
          sourcefile: args.path,
          format: 'esm',
          define: {
            'import.meta.url': JSON.stringify(pathToFileURL(args.path).href),
            'import.meta.filename': JSON.stringify(args.path),
            'import.meta.dirname': JSON.stringify(dirname(args.path)),
          },
        })
        return { contents: code, loader: 'js', resolveDir: dirname(args.path) }
      })
    },
  }
}
