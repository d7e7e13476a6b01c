import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
import{createHash}from"node:crypto";function canonicalJson(value){return JSON.stringify(value,(_key,v)=>v&&typeof v=="object"&&!Array.isArray(v)?Object.fromEntries(Object.entries(v).sort(([a],[b])=>a<b?-1:a>b?1:0)):v)}function sha256(text){return createHash("sha256").update(text).digest("hex")}function fingerprint(value){return sha256(canonicalJson(value))}export{sha256,fingerprint};
