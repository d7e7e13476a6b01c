import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
import{a,b,c}from"./chunk-VZUHUJ6R.js";import"./chunk-ANCSRXJG.js";import"./chunk-AXQ2JOAK.js";import"./chunk-NK7LW3U5.js";import"./chunk-NBA2QGD3.js";import"./chunk-3FFDJLNJ.js";import"./chunk-UMTMYE54.js";import"./chunk-DU2QDPIW.js";import"./chunk-ELYOBAI2.js";import"./chunk-ZL7NNOHF.js";import"./chunk-TQAX5ZZI.js";import"./chunk-NSUJTOJD.js";import"./chunk-4KE5IX3I.js";export{a as newestFirst,b as renderIndex,c as writeIndex};
