import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
import{require_dist}from"./chunk-FIQXCTUO.js";import"./chunk-ITY4EBE3.js";export default require_dist();
