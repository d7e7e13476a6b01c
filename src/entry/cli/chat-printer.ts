import type { ChatPrinter } from '../../app/pipeline/chat.ts'
import type { Output } from '../../app/pipeline/context.ts'
import { checkText } from '../../records/scenario/scenario.ts'
import { agentTurnLines, decisionLines, terminalText } from '../printers/dialogue.ts'

const HELP_LINE = 'Type as the user; /save <file> keeps the conversation as a scenario, /end (or Ctrl+D) ends it.'

/**
 * `convy-ci chat` on a terminal: the prompt, the agent's answers as `run --verbose` shows them, and
 * the decisions at the end on stdout; warnings and errors on stderr. What the agent or the judge
 * said is escaped for the terminal and its continued lines indented under the speaker.
 */
export function terminalChatPrinter(stdout: Output, stderr: Output): ChatPrinter {
  const out = (text: string) => stdout.write(text)
  let prompted = false
  return {
    opened(agent, scenario) {
      out(`Chatting with ${agent}${scenario ? ` on scenario ${scenario.id}` : ''}. ${HELP_LINE}\n`)
      if (scenario?.user !== undefined) out(`\nYou play:\n  ${terminalText(scenario.user, '  ')}\n`)
      if (scenario?.script !== undefined) out(`\nIts script:\n${scenario.script.map((line) => `  - ${terminalText(line, '    ')}`).join('\n')}\n`)
    },
    prompt() {
      // The first prompt stands apart from the lines about the chat above it.
      out(prompted ? 'You: ' : '\nYou: ')
      prompted = true
    },
    agentTurn(turn) {
      for (const [label, text] of agentTurnLines(turn)) out(`${label}${terminalText(text, '  ')}\n`)
    },
    help: () => out(`${HELP_LINE}\n`),
    saveWhere: () => out('Say where: /save scenarios/my-chat.yml\n'),
    nothingToSave: () => out('Nothing to save yet: say something first.\n'),
    saved(saved, lines) {
      const what = lines === 1 ? 'the line' : `${lines} lines`
      out(`Saved ${what} as a scenario script: ${saved.file}${saved.needsDecisions ? ' (add `judge:` claims or `checks:` before running it)' : ''}\n`)
    },
    notSaved: (reason) => out(`Not saved: ${terminalText(reason)}\n`),
    fatalCheck: (check) => out(`The answer broke a fatal check (${check.kind} ${terminalText(checkText(check))}): the conversation ends here.\n`),
    ended: () => out('\n'),
    decided(attempt) {
      if (!attempt) return out('No answer to decide on.\n')
      for (const [label, text] of decisionLines(attempt)) out(`${label}${terminalText(text, '    ')}\n`)
    },
    warning: (message) => stderr.write(`warning: ${terminalText(message)}\n`),
    error: (message) => stderr.write(`error: ${terminalText(message)}\n`),
  }
}
