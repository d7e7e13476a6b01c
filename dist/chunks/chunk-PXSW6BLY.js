import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
import{a as u}from"./chunk-4KE5IX3I.js";import{readFileSync as n}from"node:fs";function l(e){if(e.GITHUB_ACTIONS!=="true")return null;let r;try{e.GITHUB_EVENT_PATH&&(r=JSON.parse(n(e.GITHUB_EVENT_PATH,"utf8")).pull_request)}catch{r=void 0}return{commit:r?.head?.sha??e.GITHUB_SHA??null,branch:r?.head?.ref??e.GITHUB_HEAD_REF??e.GITHUB_REF_NAME??null,pullRequest:typeof r?.number=="number"?r.number:null}}u(l,"ciInfo");export{l as a};
