import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
var e={Ok:0,Failed:1,BadInput:2,Interrupted:130};process.stderr.write("::error::convy-ci: the GitHub Action is not part of this release yet; run `npx convy-ci run` in a step instead.\n");process.exitCode=e.BadInput;
