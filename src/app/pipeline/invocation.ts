/**
 * How the user started convy-ci, so a hint prints a command that works when pasted: someone who ran
 * `npx convy-ci run` (or `npm exec`) has no `convy-ci` on their PATH. npm sets npm_command=exec for
 * both; a global install, `npm run` scripts and `node dist/cli.js` get the plain name.
 */
export function commandName(env: Readonly<Record<string, string | undefined>>): string {
  return env.npm_command === 'exec' ? 'npx convy-ci' : 'convy-ci'
}
