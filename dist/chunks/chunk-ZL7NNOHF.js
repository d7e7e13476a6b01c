import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
import{a as r}from"./chunk-4KE5IX3I.js";import{createRequire as t}from"node:module";function n(){return"0.1.0"}r(n,"readVersion");var i=n();export{i as a};
