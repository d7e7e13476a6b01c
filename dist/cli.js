#!/usr/bin/env node
import{terminalPrinters,writerFor}from"./chunks/chunk-IQDO327B.js";import"./chunks/chunk-H3HJHWJO.js";import"./chunks/chunk-WMFMJKWJ.js";import"./chunks/chunk-UPRM7STC.js";import"./chunks/chunk-P2OKGV4G.js";import"./chunks/chunk-CTYOKRNN.js";import"./chunks/chunk-W44OEOL6.js";import{forTerminal}from"./chunks/chunk-LNUVJZNA.js";import"./chunks/chunk-FUNQBBN7.js";import"./chunks/chunk-XEM6SS2C.js";import{didYouMean}from"./chunks/chunk-RTIQAAPS.js";import{CONVY_VERSION}from"./chunks/chunk-R72EZT4V.js";import"./chunks/chunk-XAXTEDK3.js";import{ExitCode,InputError,InputErrors,Interrupted,toConvyError}from"./chunks/chunk-XEVIKRC3.js";import"./chunks/chunk-A2EJQX32.js";import*as nodeModule from"node:module";import{setFlagsFromString}from"node:v8";process.versions.v8.startsWith("11.")&&setFlagsFromString("--interrupt-budget=270336");var withCache=nodeModule;withCache.enableCompileCache?.();var MAIN_HELP=`convy-ci \u2014 multi-turn conversation tests for AI agents, built for CI

Usage: convy-ci <command> [options]

Commands:
  init [dir]                      make a project: convy.yml, an example agent, scenarios
  run <agent>... [options]        play the scenarios against agents; a run folder per agent
  resume <run>                    play the attempts an interrupted run is missing
  replay <run>                    play a run's recorded user lines again against the agent
  rejudge <run> [--samples m]     ask the judge again about a run's recorded dialogues; a new run
  judge-check <labels.jsonl>      how the judge agrees with your labels of its decisions; writes calibration.json
  report                          rebuild every run's report.html and results/index.html
  compare <before> <after>        compare two runs: a page, or --markdown for the PR text
  merge <run>...                  one run from the shards of a matrix job
  baseline <agent>...             download the default branch's latest run from GitHub into results/
  publish <run> --pr N --sha S    compare with the default branch's latest run; post the PR comment and check
  chat <agent> [--scenario id]    you play the user at the terminal; save the conversation as a scenario

Options:
  -h, --help                      help for convy-ci or a command (convy-ci run --help)
  -v, --version                   the version

Exit codes: 0 every attempt finished \xB7 1 an attempt ended with an agent error or a failure of
convy-ci's models (or a gate failed) \xB7 2 bad input, nothing ran \xB7 130 interrupted
`,COMMAND_HELP={init:`Usage: convy-ci init [dir]

Makes a project in dir (default: here): convy.yml, .env.example, agents/bookshop.ts (an example
custom agent), scenarios/ (some for a model gateway, one scripted that needs no model) and an empty
results/, where each run makes its folder.
Refuses, writing nothing, if any of those files already exists.
`,run:`Usage: convy-ci run <agent>... [options]

Plays every selected scenario k times against each agent, one agent after another, and writes a run
folder per agent: results/<agent>/<time>_<hex>/ with run.json, attempts.jsonl and report.html.

Options:
  -k <n>                   attempts per scenario (default 1)
  --parallel <n>           attempts played at once (default 4)
  --scenarios <glob>       only scenarios whose id matches (repeatable; * and ?)
  --tags <tag>             only scenarios with one of these tags (repeatable, or a,b)
  --turn-timeout <s>       seconds for each step of the agent: opening, a turn, closing (default 600)
  --smoke                  check the plumbing for free: the agent answers for real, the user's lines
                           come from the script (or one greeting), no model is called
  --review, --no-review    review each failed attempt of the simulated user with the judge's model and
                           leave those its own mistake decided out of the pass rate, as user errors
                           (default: models.review in convy.yml, on unless set to false)
  --shard <i/n>            play the i-th of n balanced slices of the attempts (matrix jobs)
  --cache <mode>           off (default), read, write or readwrite: keep convy-ci's model answers in
                           .convy/cache/, per attempt, so a repeated run calls no model
  --budget-usd <dollars>   stop starting attempts before convy-ci's models would cost more (needs
                           prices in convy.yml); resume continues with --budget-usd
  --judge-samples <m>      ask the judge m times per attempt (default 1): each claim keeps its votes
                           and is decided by their majority; the report shows the judge's flip rate
  --config <file>          convy.yml to use (default ./convy.yml); the project is its folder
  --results <dir>          where run folders go (default: results/ beside convy.yml)
  --verbose                the dialogue on stdout as it happens (User:, Agent: with time and tokens,
                           tool calls), then each decision with its reason; with --parallel above 1
                           every line starts with [scenario #attempt]

Ctrl+C stops cleanly: finished attempts are kept, and it prints how to resume.
`,resume:`Usage: convy-ci resume <run> [--budget-usd <dollars>] [--verbose] [--config <file>] [--results <dir>]

<run> is a run id (support_bot/2026-11-29T10-45-48_a1b2), its 4-hex part (a1b2) or a run folder.
Plays exactly the attempts the run is missing, with the run's own settings and scenarios. Refuses
(exit 2) when the agent's configuration or module, the models' configuration or a model changed, or
when another process is writing the run. A run with every attempt recorded that was killed before it
was marked finished is finished: its state, report and the index are written.

  --budget-usd <dollars>   the budget for the whole run, what it spent before included (a run
                           stopped for budget resumes with a larger one); default: the run's own
  --verbose                each attempt's dialogue on stdout as it is played, as run --verbose
  --config <file>          convy.yml to use (default ./convy.yml); the project is its folder
  --results <dir>          where the runs are (default: results/ beside convy.yml)
`,replay:`Usage: convy-ci replay <run> [--judge | --no-judge] [--parallel <n>] [--turn-timeout <s>] [--verbose]

Plays every attempt of a recorded run again against the agent as it is now, sending the user's lines
as they were recorded: no simulated user is called, so the dialogues are exactly comparable. With
--judge (the default) the judge decides the claims again; --no-judge decides the checks only and calls
no model at all. The result is a new run folder; compare it with the original. With --verbose each
dialogue is printed as it is played again (a CI failure, watched on your machine).
`,rejudge:`Usage: convy-ci rejudge <run> [--samples <m>] [--scenarios <glob>] [--parallel <n>]

Asks the judge again about every recorded dialogue of a run \u2014 no agent, no simulated user \u2014 m times
each (default 3): each claim keeps its votes and is decided by their majority, and the report shows
how often the judge disagreed with itself (its flip rate). The result is a new run folder (rejudgeOf
the original); compare the two, or read its report, to tell a flaky agent from an unstable judge.
Attempts that ended in an agent error, and checks, are kept as recorded. Costs m judge calls per
attempt with claims.

  --samples <m>            judgements per attempt (default 3, at most 15)
  --scenarios <glob>       only these scenarios (repeatable; * and ?); the others are left out
  --parallel <n>           attempts judged at once (default: the run's own)
  --config <file>          convy.yml to use (default ./convy.yml); the project is its folder
  --results <dir>          where the runs are (default: results/ beside convy.yml)
`,"judge-check":`Usage: convy-ci judge-check <labels.jsonl> [--judge <model>] [--samples <m>] [--json]

Compares the judge's claim decisions with a person's labels of them (marked in a run's report.html,
"Download labels") and prints agreement, the share of holding claims judged as holding and of
failing claims judged as failing, and Cohen's \u03BA, each with a 95% interval, overall and per scenario,
then every disagreement with the judge's reason. Writes calibration.json beside the labels: the
judge (model, prompt fingerprint, temperature, samples) and its figures, which run summaries,
reports, compare pages and comments cite while the judge is the same, and call stale once it is not.
A label naming no recorded run, attempt or claim is an error at its line (exit 2).

Options:
  --recorded               the decisions recorded in the runs (the default; no model is called)
  --judge <model>          ask this judge model (through convy.yml's gateway) about the labelled
                           dialogues instead: compare two judges or prompts on the same labels
  --samples <m>            with --judge: judgements per attempt, decided by their majority (default 1)
  --json                   print the figures as data
  --out <file>             where calibration.json goes (default: beside the labels)
  --config <file>          convy.yml to use with --judge (default ./convy.yml)
  --results <dir>          where the labelled runs are (default: results/ beside convy.yml, or ./results)
`,report:`Usage: convy-ci report [--results <dir>] [--config <file>]

Rebuilds report.html in every run folder and results/index.html (every run, newest first). A run
another process is writing is skipped, naming that process.
`,compare:`Usage: convy-ci compare <before> <after> [options]

<before> and <after> are run ids, their 4-hex parts, or run folders. Writes
results/compare/<before>-vs-<after>.html and prints a summary.

Options:
  --markdown               print the text of the pull request comment instead
  --json                   print the comparison as data instead
  --fail-on <when>         worse (default): exit 1 when the gate fails; failing: when any attempt
                           of <after> did not pass; never. An agent error is a failed attempt;
                           what <after> lacks (no verdict, user_error relabels, removed or edited
                           scenarios) is also counted against it, and where that changes the
                           outcome the gate is inconclusive, evidence missing: exit 3. Too little
                           to tell (k too low) is neutral: exit 0. The gate's word goes to stderr
  --no-fail-on-inconclusive
                           exit 0 when evidence is missing (by default it fails, exit 3)
  --gate-across-judge-change
                           gate across a change of judge that no rejudge settled (by default it
                           is evidence missing)
  --rejudge-baseline       when the judge changed (model, prompt, samples, review), first judge
                           <before>'s recorded dialogues again with <after>'s judge, into a new run
                           that is compared instead: like with like (needs convy.yml's models)
  --fail-on-slower <pct>   exit 1 too when answers got slower beyond noise (overall or in a
                           scenario) by at least pct percent; off by default
  --fail-on-costlier <pct> exit 1 too when agent tokens or dollars per attempt rose beyond noise
                           (overall or in a scenario) by at least pct percent; off by default
  --report-url <url>       link the markdown to this report
  --max-age-days <n>       warn when <before> is older than this (default 7)
  --results <dir>          where the runs are (default: results/ beside convy.yml, or ./results)
`,merge:`Usage: convy-ci merge <run>... [--results <dir>]

Combines the run folders of the shards of one run (--shard 1/N \u2026 N/N) into one run folder, with its
report: exactly the attempts the unsharded run would have. Refuses, saying why, shards of different
runs (agent, models, scenarios or settings differ), a missing or repeated shard, and unfinished ones.
`,baseline:`Usage: convy-ci baseline <agent>... [options]

Downloads the run a pull request is compared with \u2014 the newest healthy successful run on the default
branch that uploaded the agent's run artifact, walking back up to 5 runs past ones with too many
agent errors or missing verdicts (docs/baseline.md) \u2014 into results/, to reproduce the comparison locally:
  GITHUB_TOKEN=$(gh auth token) convy-ci baseline support_bot --repo acme/bot
  convy-ci run support_bot && convy-ci compare <baseline> <your run> --markdown

Options:
  --repo <owner/name>      the repository (default: GITHUB_REPOSITORY)
  --branch <name>          the branch (default: the repository's default branch)
  --workflow <file or id>  only this workflow's runs (e.g. convy.yml; default: any workflow)
  --artifact-name <name>   the action's artifact-name (default convy)
  --against <run>          judge the candidates' health against this local run, as the action does
                           against the pull request's run (default: their own share of errors only)
  --history <N>            also the branch's last N runs' summaries, into results/<agent>/history.json:
                           report and compare then draw each scenario's trend (docs/trend.md)
  --results <dir>          where run folders go (default: results/ beside convy.yml, or ./results)

GITHUB_TOKEN (or GH_TOKEN) must be able to read the repository's Actions; GITHUB_API_URL points at
GitHub Enterprise Cloud's API where needed.
`,publish:`Usage: convy-ci publish <run> [options]

What the action does after a run, from any CI: compares <run> (an id, its 4-hex part, a run
folder, or an agent's name for its newest run) with the default branch's latest run on GitHub (found
as convy-ci baseline finds it), posts the same sticky comment and check run on the pull request,
prints the comment's markdown (appended to GITHUB_STEP_SUMMARY too when set), exits by the gate:
  GITHUB_TOKEN=\u2026 convy-ci publish 3f2a --repo acme/bot --pr 12 --sha <head commit> --fail-on worse

Options:
  --repo <owner/name>      the repository (default: GITHUB_REPOSITORY)
  --pr <number>            the pull request (default: from the event file GITHUB_EVENT_PATH)
  --sha <commit>           the pull request's head commit, where the check goes (default: the event file's)
  --branch <name>          the baseline's branch (default: the repository's default branch)
  --workflow <file or id>  the baseline from this workflow's runs (default: any workflow)
  --artifact-name <name>   the action's artifact-name (default convy); also names the comment and check
  --history <N>            the branch's last N runs' summaries for the comment's trend lines, as the
                           action's history input (default 10; 0: none; docs/trend.md)
  --report-url <url>       link the comment and the check to this report
  --comment <when>         on-change (default): post on Worse, Better or cannot-tell, update an
                           existing comment always; always; never
  --no-check               no check run
  --fail-on <when>         worse (default), failing or never, as compare --fail-on
  --no-fail-on-inconclusive
                           do not fail when evidence is missing (by default it fails)
  --gate-across-judge-change
                           gate across a change of judge that no rejudge settled
  --fail-on-slower <pct>   fail too when answers got slower beyond noise by at least pct percent
  --fail-on-costlier <pct> fail too when agent tokens or dollars per attempt rose beyond noise by
                           at least pct percent (both off by default, as compare's)
  --results <dir>          where the runs are (default: results/ beside convy.yml, or ./results)

GITHUB_TOKEN (or GH_TOKEN) needs actions: read, pull-requests: write and checks: write (checks need a
GitHub App token or the workflow's GITHUB_TOKEN). A comment or check that cannot be posted is a
warning, as in the action; a missing token, repository, pull request or commit is exit 2.
`,chat:`Usage: convy-ci chat <agent> [options]

You play the user: type a line, the agent answers with its time and tokens; /end or Ctrl+D ends the
conversation, /save <file> keeps your lines so far as a scenario's script. With --scenario, its
instructions are shown to play by, a fatal check ends the conversation as in a run, and at the end
its checks and judge decide it (only the judge is called: no simulated user).

Options:
  --scenario <id>          play this scenario of the project; its claims and checks decide at the end
  --save <file>            when the conversation ends, save it as a scenario (never overwrites)
  --turn-timeout <s>       seconds for each step of the agent (default 600)
  --config <file>          convy.yml to use (default ./convy.yml)
`};var COMMANDS={init:async()=>(await import("./chunks/init-D7UG6NTE.js")).initCommand,run:async()=>(await import("./chunks/run-SLTERRJF.js")).runCommand,resume:async()=>(await import("./chunks/resume-R5HMVC2X.js")).resumeCommand,report:async()=>(await import("./chunks/report-H6NDNTH7.js")).reportCommand,compare:async()=>(await import("./chunks/compare-5RPWTWUK.js")).compareCommand,replay:async()=>(await import("./chunks/replay-VIOIOVF4.js")).replayCommand,rejudge:async()=>(await import("./chunks/rejudge-TKUOMWIW.js")).rejudgeCommand,"judge-check":async()=>(await import("./chunks/judge-check-VPJI3VWI.js")).judgeCheckCommand,merge:async()=>(await import("./chunks/merge-64CG4SYH.js")).mergeCommand,baseline:async()=>(await import("./chunks/baseline-WFB2S2LZ.js")).baselineCommand,publish:async()=>(await import("./chunks/publish-DEEQKGZA.js")).publishCommand,chat:async()=>(await import("./chunks/chat-HRQ6SNMD.js")).chatCommand};async function runCli(ctx2,argv){let[name,...rest]=argv;if(name===void 0||name==="-h"||name==="--help"||name==="help")return ctx2.stdout.write(name==="help"&&rest[0]&&COMMAND_HELP[rest[0]]?COMMAND_HELP[rest[0]]:MAIN_HELP),ExitCode.Ok;if(name==="-v"||name==="--version")return ctx2.stdout.write(`${CONVY_VERSION}
`),ExitCode.Ok;if(rest.includes("-h")||rest.includes("--help")){let help=COMMAND_HELP[name];if(help)return ctx2.stdout.write(help),ExitCode.Ok}let command=COMMANDS[name];if(!command){let hint=didYouMean(name,Object.keys(COMMAND_HELP));throw new InputError(`unknown command "${name}"${hint?` \u2014 did you mean "${hint}"?`:""} (see convy-ci --help)`)}return(await command())(ctx2,rest)}function processWriter(command){return writerFor(process,command)}function typedLines(input){return{[Symbol.asyncIterator](){let reader,lines,open=async()=>{if(lines===void 0){let{createInterface}=await import("node:readline");reader=createInterface({input,crlfDelay:1/0,terminal:!1}),lines=reader[Symbol.asyncIterator]()}return lines};return{next:async()=>(await open()).next(),async return(){return reader?.close(),input.destroy(),await lines?.return?.(),{done:!0,value:void 0}}}}}}var controller=new AbortController,signals=0,onSignal=signal=>{signals++,signals>1&&process.exit(ExitCode.Interrupted),process.stderr.write(`
${signal}: stopping; finished attempts are kept (press Ctrl+C again to quit at once)
`),controller.abort(new Interrupted(`interrupted by ${signal}`))};process.on("SIGINT",onSignal);process.on("SIGTERM",onSignal);var features=process.features,ctx={cwd:process.cwd(),env:process.env,stdout:process.stdout,stderr:process.stderr,interactive:!!process.stderr.isTTY&&process.env.CI!=="true",signal:controller.signal,canStripTypes:features.typescript==="strip"||features.typescript==="transform",printers:terminalPrinters,now:()=>new Date,writer:processWriter,readLines:()=>typedLines(process.stdin)};runCli(ctx,process.argv.slice(2)).then(code=>{process.exitCode=code},error=>{let convyError=toConvyError(error),lines=convyError instanceof InputErrors?convyError.problems.map(p=>`error: ${p.message}`):[`error: ${convyError.message}`];process.stderr.write(`${lines.map(forTerminal).join(`
`)}
`),convyError.exitCode!==ExitCode.BadInput&&process.env.CONVY_DEBUG&&error instanceof Error&&process.stderr.write(`${error.stack}
`),process.exitCode=convyError.exitCode});
