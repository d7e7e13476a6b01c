import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
import{a as r}from"./chunk-4KE5IX3I.js";function o(n,t){return t===void 0?{name:n}:{name:n,arguments:e(t)}}r(o,"toolCall");function e(n){if(typeof n!="string")return n;let t=n.trim();if(t!=="")try{return JSON.parse(t)}catch{return n}}r(e,"parsedArguments");export{o as a};
