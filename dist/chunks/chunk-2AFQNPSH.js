import { createRequire as __convyCreateRequire } from 'node:module';
const require = __convyCreateRequire(import.meta.url);
function writerFor(self,command){let shown=command.replace(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu,"?").slice(0,200);return{pid:self.pid,command:shown,isAlive(pid){try{return self.kill(pid,0),!0}catch(error){return error.code==="EPERM"}}}}export{writerFor};
