var COMMAND_NAMES=["init","run","resume","replay","rejudge","judge-check","report","compare","merge","baseline","publish","chat"];export{COMMAND_NAMES};
