import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
import{a as t}from"./chunk-4KE5IX3I.js";import{createHash as o}from"node:crypto";function s(n){return JSON.stringify(n,(a,r)=>r&&typeof r=="object"&&!Array.isArray(r)?Object.fromEntries(Object.entries(r).sort(([e],[i])=>e<i?-1:e>i?1:0)):r)}t(s,"canonicalJson");function u(n){return o("sha256").update(n).digest("hex")}t(u,"sha256");function f(n){return u(s(n))}t(f,"fingerprint");export{u as a,f as b};
