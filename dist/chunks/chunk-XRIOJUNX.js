import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
import{a as e}from"./chunk-4KE5IX3I.js";var n=class extends Error{static{e(this,"ResponseTooLarge")}constructor(t,s){super(`${t} answered more than ${a(s)}; convy-ci stops reading an answer there (max_reply_kb sets what is kept)`),this.name="ResponseTooLarge"}};function a(r){return`${Math.round(r/2**20*10)/10} MiB`}e(a,"mebibytes");export{n as a};
