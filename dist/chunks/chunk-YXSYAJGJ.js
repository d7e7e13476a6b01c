import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
function toolCall(name,args){return args===void 0?{name}:{name,arguments:parsedArguments(args)}}function parsedArguments(args){if(typeof args!="string")return args;let trimmed=args.trim();if(trimmed!=="")try{return JSON.parse(trimmed)}catch{return args}}export{toolCall};
