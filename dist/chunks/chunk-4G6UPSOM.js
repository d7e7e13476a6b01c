import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
import{a as o}from"./chunk-ZL7NNOHF.js";import{e as r,g as s}from"./chunk-CBDIFWVF.js";import{a as n,d as i}from"./chunk-4KE5IX3I.js";var m={};i(m,{HttpError:()=>r,defineAgent:()=>g,postJson:()=>p,version:()=>o});function g(e){return e}n(g,"defineAgent");async function p(e,a,t={}){return await s(e,{method:t.method??"POST",headers:t.headers,body:a,signal:t.signal})}n(p,"postJson");export{g as a,p as b,m as c};
