import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
import{a as e}from"./chunk-4KE5IX3I.js";function c(r,i){let o=i.replace(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu,"?").slice(0,200);return{pid:r.pid,command:o,isAlive(t){try{return r.kill(t,0),!0}catch(n){return n.code==="EPERM"}}}}e(c,"writerFor");export{c as a};
