import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
import{a as u}from"./chunk-4KE5IX3I.js";var e=/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g,o=/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g,c=/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;function a(r){return r.replace(e,"").replace(o,"\uFFFD")}u(a,"forPage");function g(r){let t=u(n=>`\\u${n.charCodeAt(0).toString(16).padStart(4,"0")}`,"escape");return r.replace(e,t).replace(c,t)}u(g,"forTerminal");export{e as a,a as b,g as c};
