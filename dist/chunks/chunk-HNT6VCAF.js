import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
import{a as s}from"./chunk-4KE5IX3I.js";function f(o,r){let e,t=1/0;for(let i of r){let n=d(o.toLowerCase(),i.toLowerCase());n<t&&(e=i,t=n)}return e!==void 0&&t<=Math.max(2,Math.floor(o.length/3))?e:void 0}s(f,"didYouMean");function d(o,r){let e=Array.from({length:r.length+1},(t,i)=>i);for(let t=1;t<=o.length;t++){let i=[t];for(let n=1;n<=r.length;n++)i[n]=Math.min(e[n]+1,i[n-1]+1,e[n-1]+(o[t-1]===r[n-1]?0:1));e=i}return e[r.length]}s(d,"editDistance");export{f as a};
