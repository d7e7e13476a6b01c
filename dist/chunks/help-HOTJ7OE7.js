import{optionsOf}from"./chunk-MS6MI6TH.js";import"./chunk-NYXOBIQQ.js";import"./chunk-IZ3GG7G6.js";import"./chunk-XZCTXHY3.js";import"./chunk-S5XD7Y5C.js";import"./chunk-5KDNHIFC.js";import"./chunk-7WABJKQY.js";import{COMMAND_NAMES}from"./chunk-XWBCWXSW.js";import"./chunk-RTIQAAPS.js";import"./chunk-J6KB257B.js";import"./chunk-Q3EWTWBF.js";import"./chunk-F7XJFS7Z.js";import"./chunk-PW4D74MC.js";import"./chunk-R72EZT4V.js";import"./chunk-XAXTEDK3.js";import"./chunk-PY2QEGO2.js";import"./chunk-3YVVEOQH.js";import"./chunk-OQL77ZRE.js";import"./chunk-VMM6LRFU.js";import"./chunk-FPASMEQ6.js";import"./chunk-XEVIKRC3.js";import"./chunk-A2EJQX32.js";function flagLabel(o,angle=!0){let cli=o.cli,dashed=cli.flag.length===1?`-${cli.flag}`:`--${cli.flag}`;if(o.kind.switch)return cli.negation?cli.default===!0?`--${cli.negation}`:`${dashed}, --${cli.negation}`:dashed;let metavar=cli.metavar??o.kind.metavar;return`${dashed} ${angle?`<${metavar}>`:metavar}`}function cliDefault(o){let cli=o.cli;return cli.defaultText!==void 0?{text:cli.defaultText,isValue:!1}:cli.default===void 0||o.kind.switch?null:{text:o.kind.show(cli.default),isValue:!0}}function helpWithDefault(o,inTable){let shown=cliDefault(o),help=o.cli.help;return help.includes("{default}")?help.replaceAll("{default}",shown?.text??""):!shown||inTable?help:`${help} (default${shown.isValue?"":":"} ${shown.text})`}var WIDTH=104,COLUMN=27;function wrap(words,width){let lines=[],line="";for(let word of words.split(" "))line&&line.length+1+word.length>width?(lines.push(line),line=word):line=line?`${line} ${word}`:word;return line&&lines.push(line),lines}function optionHelp(command){let out=[];for(let[,o]of optionsOf(command)){let label=`  ${flagLabel(o)}`,lines=wrap(helpWithDefault(o,!1),WIDTH-COLUMN);label.length<COLUMN-1?out.push(`${label.padEnd(COLUMN)}${lines[0]}`):out.push(label,`${" ".repeat(COLUMN)}${lines[0]}`);for(let line of lines.slice(1))out.push(`${" ".repeat(COLUMN)}${line}`)}return out.join(`
`)}var MAIN_HELP=`convy-ci \u2014 multi-turn conversation tests for AI agents, built for CI

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
`,COMMANDS={init:{usage:"convy-ci init [dir]",about:`Makes a project in dir (default: here): convy.yml, .env.example, agents/bookshop.ts (an example
custom agent), scenarios/ (some for a model gateway, one scripted that needs no model) and an empty
results/, where each run makes its folder.
Refuses, writing nothing, if any of those files already exists.`},run:{usage:"convy-ci run <agent>... [options]",about:`Plays every selected scenario k times against each agent, one agent after another, and writes a run
folder per agent: results/<agent>/<time>_<hex>/ with run.json, attempts.jsonl and report.html.`,footer:"Ctrl+C stops cleanly: finished attempts are kept, and it prints how to resume."},resume:{usage:"convy-ci resume <run> [options]",about:`<run> is a run id (support_bot/2026-11-29T10-45-48_a1b2), its 4-hex part (a1b2) or a run folder.
Plays exactly the attempts the run is missing, with the run's own settings and scenarios. Refuses
(exit 2) when the agent's configuration or module, the models' configuration or a model changed, or
when another process is writing the run. A run with every attempt recorded that was killed before it
was marked finished is finished: its state, report and the index are written.`},replay:{usage:"convy-ci replay <run> [options]",about:`Plays every attempt of a recorded run again against the agent as it is now, sending the user's lines
as they were recorded: no simulated user is called, so the dialogues are exactly comparable. By
default the judge decides the claims again. The result is a new run folder; compare it with the
original. With --verbose each dialogue is printed as it is played again (a CI failure, watched on
your machine).`},rejudge:{usage:"convy-ci rejudge <run> [options]",about:`Asks the judge again about every recorded dialogue of a run \u2014 no agent, no simulated user \u2014 m times
each: each claim keeps its votes and is decided by their majority, and the report shows how often the
judge disagreed with itself (its flip rate). The result is a new run folder (rejudgeOf the original);
compare the two, or read its report, to tell a flaky agent from an unstable judge. Attempts that
ended in an agent error, and checks, are kept as recorded. Costs m judge calls per attempt with
claims.`},"judge-check":{usage:"convy-ci judge-check <labels.jsonl> [options]",about:`Compares the judge's claim decisions with a person's labels of them (marked in a run's report.html,
"Download labels") and prints agreement, the share of holding claims judged as holding and of
failing claims judged as failing, and Cohen's \u03BA, each with a 95% interval, overall and per scenario,
then every disagreement with the judge's reason. Writes calibration.json beside the labels: the
judge (model, prompt fingerprint, temperature, samples) and its figures, which run summaries,
reports, compare pages and comments cite while the judge is the same, and call stale once it is not.
Every label naming no recorded run, attempt or claim is an error at its line (exit 2).`},report:{usage:"convy-ci report [options]",about:`Rebuilds report.html in every run folder and results/index.html (every run, newest first). A run
another process is writing is skipped, naming that process.`},compare:{usage:"convy-ci compare <before> <after> [options]",about:`<before> and <after> are run ids, their 4-hex parts, or run folders. Writes
results/compare/<before>-vs-<after>.html and prints a summary.`},merge:{usage:"convy-ci merge <run>... [options]",about:`Combines the run folders of the shards of one run (--shard 1/N \u2026 N/N) into one run folder, with its
report: exactly the attempts the unsharded run would have. Adaptive shards (run --adaptive --shard)
join into one adaptive run with every scenario's attempts and stop. Refuses, saying why, shards of
different runs (agent, models, scenarios or settings differ; adaptive shards whose rule, baseline or
ceiling differ, or whose scenarios overlap), a missing or repeated shard, and unfinished ones.`},baseline:{usage:"convy-ci baseline <agent>... [options]",about:`Downloads the run a pull request is compared with \u2014 the newest healthy successful run on the default
branch that uploaded the agent's run artifact, walking back up to 5 runs past ones with too many
agent errors or missing verdicts (docs/baseline.md) \u2014 into results/, to reproduce the comparison locally:
  GITHUB_TOKEN=$(gh auth token) convy-ci baseline support_bot --repo acme/bot
  convy-ci run support_bot && convy-ci compare <baseline> <your run> --markdown`,footer:`GITHUB_TOKEN (or GH_TOKEN) must be able to read the repository's Actions; GITHUB_API_URL points at
GitHub Enterprise Cloud's API where needed.`},publish:{usage:"convy-ci publish <run> [options]",about:`What the action does after a run, from any CI: compares <run> (an id, its 4-hex part, a run
folder, or an agent's name for its newest run) with the default branch's latest run on GitHub (found
as convy-ci baseline finds it), posts the same sticky comment and check run on the pull request,
prints the comment's markdown (appended to GITHUB_STEP_SUMMARY too when set), exits by the gate:
  GITHUB_TOKEN=\u2026 convy-ci publish 3f2a --repo acme/bot --pr 12 --sha <head commit> --fail-on worse`,footer:`GITHUB_TOKEN (or GH_TOKEN) needs actions: read, pull-requests: write and checks: write (checks need a
GitHub App token or the workflow's GITHUB_TOKEN). A comment or check that cannot be posted is a
warning, as in the action; a missing token, repository, pull request or commit is exit 2.`},chat:{usage:"convy-ci chat <agent> [options]",about:`You play the user: type a line, the agent answers with its time and tokens; /end or Ctrl+D ends the
conversation, /save <file> keeps your lines so far as a scenario's script. With --scenario, its
instructions are shown to play by, a fatal check ends the conversation as in a run, and at the end
its checks and judge decide it (only the judge is called: no simulated user).`}};function commandHelp(command){let{usage,about,footer}=COMMANDS[command],options=optionHelp(command);return[`Usage: ${usage}`,"",about,...options?["","Options:",options]:[],...footer?["",footer]:[],""].join(`
`)}var COMMAND_HELP=Object.fromEntries(COMMAND_NAMES.map(command=>[command,commandHelp(command)]));export{COMMAND_HELP,MAIN_HELP};
