import{readCommandArgs}from"./chunk-2TTCRVYE.js";import"./chunk-MS6MI6TH.js";import"./chunk-NYXOBIQQ.js";import"./chunk-IZ3GG7G6.js";import"./chunk-XZCTXHY3.js";import"./chunk-S5XD7Y5C.js";import"./chunk-5KDNHIFC.js";import"./chunk-7WABJKQY.js";import"./chunk-XWBCWXSW.js";import"./chunk-RTIQAAPS.js";import"./chunk-J6KB257B.js";import"./chunk-Q3EWTWBF.js";import"./chunk-F7XJFS7Z.js";import"./chunk-PW4D74MC.js";import"./chunk-R72EZT4V.js";import"./chunk-XAXTEDK3.js";import"./chunk-PY2QEGO2.js";import"./chunk-3YVVEOQH.js";import"./chunk-OQL77ZRE.js";import"./chunk-VMM6LRFU.js";import"./chunk-FPASMEQ6.js";import{ExitCode,InputError}from"./chunk-XEVIKRC3.js";import"./chunk-A2EJQX32.js";import{mkdir,stat,writeFile}from"node:fs/promises";import{dirname,join,relative,resolve}from"node:path";var INIT_FILES={"convy.yml":`# convy-ci project: https://github.com/convy/action/blob/main/docs/configuration.md
models:
  # Any OpenAI-compatible gateway. Left out, as here, base_url and api_key are read as the openai
  # SDK reads them: OPENAI_BASE_URL (else OpenAI) and OPENAI_API_KEY, from the environment or .env.
  # To read other variables: base_url: \${MY_GATEWAY_URL}, api_key: \${MY_GATEWAY_KEY}
  user: gpt-4.1-mini            # plays the simulated user
  judge: gpt-4.1                # decides the claims
  prices:                       # optional: dollars per million tokens, [input, output]
    gpt-4.1-mini: [0.4, 1.6]
    gpt-4.1: [2, 8]

agents:
  # A custom agent: a module that exports \`agent\` (TypeScript or JavaScript, no build step).
  bookshop: agents/bookshop.ts

  # An agent with a JSON API: templates in, dotted paths out.
  # support_bot:
  #   url: \${BOT_URL}/api/chat
  #   headers: { Authorization: "Bearer \${BOT_TOKEN}" }
  #   body: { session_id: "{session}", message: "{text}" }
  #   reply: data.answer
  #   tokens: [data.usage.input_tokens, data.usage.output_tokens]

  # An agent that is itself OpenAI-compatible:
  # my_openai_agent:
  #   protocol: openai-chat
  #   url: http://localhost:8000/v1
  #   model: support-agent
`,".env.example":`# Copy to .env and fill in. convy-ci reads .env; the real environment wins over it.
# Values read from here are never printed or written to results.
# OPENAI_BASE_URL=https://api.openai.com/v1   # your gateway; OpenAI when unset
OPENAI_API_KEY=
# BOT_URL=http://localhost:8080
# BOT_TOKEN=
`,".gitignore":`.env
.convy/
`,"agents/bookshop.ts":`import { defineAgent } from 'convy-ci'

// A tiny rule-based bookshop assistant, so the project runs before you connect your own agent.
// Replace it with code that calls your agent; any exception counts as a failed turn.
export const agent = defineAgent({
  version: '1',
  conversation() {
    let askedForOrder = false
    return {
      answer(message) {
        const text = message.toLowerCase()
        const order = /\\b(\\d{4,})\\b/.exec(message)?.[1]
        if (order) return { text: \`Order \${order} shipped yesterday and arrives on Friday.\`, usage: { input: message.length, output: 12 } }
        if (/order|package|delivery|shipped/.test(text)) {
          askedForOrder = true
          return { text: 'I can check that. What is your order number?' }
        }
        if (askedForOrder) return { text: 'I need the order number to look it up: it is in your confirmation email.' }
        return { text: 'Hello! I can help with orders and book recommendations. What do you need?' }
      },
    }
  },
})
`,"scenarios/order-status.yml":`# Played by the simulated user; the judge decides the claims.
id: order-status
max_turns: 5
user: |
  You ordered a book a week ago and it has not arrived. Start vague: "where is my stuff?".
  Your order number is 48213; give it only when asked for it.
judge:
  - The assistant asked for the order number before giving any delivery information
  - The assistant told the user when the order will arrive
tags: [orders]
`,"scenarios/order-status-scripted.yml":`# Scripted and checked by convy-ci itself: calls no model, free and exactly repeatable.
id: order-status-scripted
script:
  - where is my package?
  - it's 48213
checks:
  - contains: order number
  - regex: "arrives? on (monday|tuesday|wednesday|thursday|friday)"
  - not_contains: sorry
tags: [orders, offline]
`,"scenarios/recommendation.yml":`id: recommendation
user: |
  You want a present for your niece, who is 12 and loves horses. You don't know any titles.
  Answer questions briefly. Stop once you have one concrete suggestion, or if the assistant can't help.
judge:
  - The assistant either recommends a specific book or says plainly that it cannot
  - The assistant does not invent an order or a price
tags: [recommendations]
`};async function initCommand(ctx,argv){let{positionals}=readCommandArgs("init",argv);if(positionals.length>1)throw new InputError("convy-ci init: give at most one folder");let dir=resolve(ctx.cwd,positionals[0]??"."),existing=[];for(let name of Object.keys(INIT_FILES))await exists(join(dir,name))&&existing.push(name);if(existing.length)throw new InputError(`convy-ci init: ${relative(ctx.cwd,dir)||"."} already has ${existing.join(", ")}; nothing was written`);for(let[name,content]of Object.entries(INIT_FILES))await mkdir(dirname(join(dir,name)),{recursive:!0}),await writeFile(join(dir,name),content);await mkdir(join(dir,"results"),{recursive:!0});let shown=relative(ctx.cwd,dir)||".";return ctx.stdout.write([`Created a convy-ci project in ${shown}:`,...Object.keys(INIT_FILES).map(n=>`  ${n}`),"  results/                 (empty: each run makes a folder here)","","Next:",...shown==="."?[]:[`  cd ${shown}`],"  npx convy-ci run bookshop --smoke      # plumbing check: the agent answers, no model is called","  npx convy-ci run bookshop --scenarios order-status-scripted   # a scripted scenario, checked offline","  cp .env.example .env                   # then set your model gateway","  npx convy-ci run bookshop -k 3         # the simulated user and the judge, 3 attempts each",""].join(`
`)),ExitCode.Ok}async function exists(path){try{return await stat(path),!0}catch{return!1}}export{initCommand};
