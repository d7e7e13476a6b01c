/** Replaced at build time by scripts/build.mjs; tests read it through src/base/shared/version.ts. */
declare const __CONVY_VERSION__: string | undefined
