var RUN_DEFAULTS={k:1,parallel:4,turnTimeoutSeconds:600},ADAPTIVE_DEFAULTS={k:3,maxAttempts:10};export{RUN_DEFAULTS,ADAPTIVE_DEFAULTS};
