import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
var BIDI=/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g,PAGE_CONTROL=/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g,TERMINAL_CONTROL=/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;function forPage(text){return text.replace(BIDI,"").replace(PAGE_CONTROL,"\uFFFD")}function forTerminal(text){let escape=c=>`\\u${c.charCodeAt(0).toString(16).padStart(4,"0")}`;return text.replace(BIDI,escape).replace(TERMINAL_CONTROL,escape)}export{BIDI,forPage,forTerminal};
