/**
 * How a loaded agent module's `import … from 'convy-ci'` reaches the running convy-ci: the loader
 * publishes the public API object on a well-known global, and the import is redirected (by esbuild or
 * by a resolve hook) to a tiny module that re-exports that object's names. So the module shares
 * convy-ci's code and version whether it runs from npx, a global install or the action's bundle, and
 * needs no `convy-ci` in the project's node_modules.
 */
const PUBLIC_API = Symbol.for('convy-ci.api')

type PublicApi = Readonly<Record<string, unknown>>

export function publishPublicApi(api: PublicApi): void {
  ;(globalThis as Record<symbol, unknown>)[PUBLIC_API] = api
}

/** True for `convy-ci` and `convy-ci/…`: the specifiers redirected to the running API. */
export function isConvyCiSpecifier(specifier: string): boolean {
  return specifier === 'convy-ci' || specifier.startsWith('convy-ci/')
}

/** ES module source that re-exports the published API, name by name. */
export function publicApiModuleSource(api: PublicApi): string {
  const names = Object.keys(api).filter((name) => name !== 'default' && /^[A-Za-z_$][\w$]*$/.test(name))
  return [
    `const api = globalThis[Symbol.for(${JSON.stringify(PUBLIC_API.description)})];`,
    `if (api === undefined) throw new Error("convy-ci's API was not published: load this module through convy-ci");`,
    ...names.map((name) => `export const ${name} = api[${JSON.stringify(name)}];`),
    'export default api;',
  ].join('\n')
}
