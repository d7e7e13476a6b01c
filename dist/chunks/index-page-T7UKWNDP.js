import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
import{newestFirst,renderIndex,writeIndex}from"./chunk-W7X6GLOA.js";import"./chunk-KMI3ZJC4.js";import"./chunk-QPJHTAZB.js";import"./chunk-LZXWVLAV.js";import"./chunk-YTDMJBO3.js";import"./chunk-SK4SGDYR.js";import"./chunk-OM4OURNQ.js";import"./chunk-JIMJKJZL.js";import"./chunk-BPAHDPNA.js";import"./chunk-X5WEG3UV.js";import"./chunk-HOGB3LFO.js";import"./chunk-LL3TH3JK.js";import"./chunk-ITY4EBE3.js";export{newestFirst,renderIndex,writeIndex};
