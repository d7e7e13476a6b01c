import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
import{a as s,c as u,d as $}from"./chunk-KWIWRDXT.js";import{i as y}from"./chunk-BXF7G3AX.js";import"./chunk-WME3P5US.js";import{l as g}from"./chunk-CA62QJ6G.js";import"./chunk-3FFDJLNJ.js";import{u as k}from"./chunk-RRRHZOLQ.js";import"./chunk-ELYOBAI2.js";import"./chunk-HNT6VCAF.js";import{a as w}from"./chunk-KQBMOQFF.js";import"./chunk-ZL7NNOHF.js";import"./chunk-TQAX5ZZI.js";import{a as n,h as c}from"./chunk-NSUJTOJD.js";import{a as f}from"./chunk-4KE5IX3I.js";async function I(r,C){let{values:x,positionals:a}=w("report",C,{results:{type:"string"},config:{type:"string"}});a.length&&r.stderr.write(`convy-ci report takes no arguments; ignoring ${a.join(" ")}
`);let p=k(r,x),m=await g(p),R=r.writer("convy-ci report"),o=0,t=0;for(let e of m){let d;try{d=await u(e.dir,e.id,R),await $(e.dir)}catch(i){i instanceof s?t++:o++,r.stderr.write(`warning: ${e.id}: ${i instanceof s?"skipped":"no report"} (${c(i)})
`)}finally{await d?.release()}}let h=await y(p),l=m.length-o-t;return r.stdout.write(`${l} report${l===1?"":"s"} written${t?`, ${t} skipped (being written)`:""}
${h}
`),o?n.Failed:n.Ok}f(I,"reportCommand");export{I as reportCommand};
