import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
var ResponseTooLarge=class extends Error{constructor(what,limit){super(`${what} answered more than ${mebibytes(limit)}; convy-ci stops reading an answer there (max_reply_kb sets what is kept)`),this.name="ResponseTooLarge"}};function mebibytes(bytes){return`${Math.round(bytes/2**20*10)/10} MiB`}export{ResponseTooLarge};
