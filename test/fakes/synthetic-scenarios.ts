import type { Check } from '../../src/records/scenario/scenario.ts'

/**
 * Material for synthetic runs: scenarios a support or coding assistant really meets, with lines a
 * user would type and sentences an agent would answer with. synthetic-run.ts assembles dialogues from
 * these, so screenshots and benchmarks look like real runs.
 */
export interface ScenarioTemplate {
  id: string
  tags: string[]
  user?: string
  script?: string[]
  judge: string[]
  /** Checks on the answers' text: the synthetic dialogues carry no tool calls. */
  checks: Extract<Check, { kind: 'contains' | 'not_contains' | 'regex' }>[]
  /** Lines the user says, in order; later ones are reused when a dialogue runs longer. */
  userLines: string[]
  /** Sentences the agent's answers are built from. */
  agentSentences: string[]
  /** A literal that satisfies each regex check, put into an answer when the check must hold. */
  regexExample?: string
}

export const TEMPLATES: readonly ScenarioTemplate[] = [
  {
    id: 'refund-late-order',
    tags: ['billing', 'refunds'],
    user: 'You ordered a desk lamp (order #48213) that arrived nine days late and scratched. You want your money back, not a replacement. Start vague: "my order was a disaster". Give the order number only when asked.',
    judge: ['Before promising anything, the agent asked for the order number', 'The agent offered a refund, not only a replacement', 'The agent never asked for the full card number'],
    checks: [],
    userLines: ['Hi, my order was a disaster.', "It's order 48213. The lamp came nine days late and the base is scratched.", "I don't want another one, I want my money back.", 'How long does the refund take?', 'OK, thanks.'],
    agentSentences: [
      "I'm sorry to hear that — let's sort it out.",
      'Could you give me your order number so I can look it up?',
      'I can see order #48213: a desk lamp, delivered on the 14th, nine days after the promised date.',
      "Since it arrived damaged and late, you're entitled to a full refund; you don't need to send the lamp back.",
      'I have started a refund of €64.90 to the card you paid with.',
      'Refunds usually show up within 3–5 business days, depending on your bank.',
      'Is there anything else I can help you with today?',
    ],
  },
  {
    id: 'clarify-backup',
    tags: ['coding'],
    user: 'You need a backup script. Start short: "Make me a backup script". Give details only when the assistant asks for them: back up ~/photos to /mnt/backup, daily.',
    judge: ['Before giving a finished script, the agent asked what to back up and where to', 'The final script copies ~/photos to /mnt/backup and runs once a day'],
    checks: [{ kind: 'contains', value: '/mnt/backup' }, { kind: 'not_contains', value: 'rm -rf' }],
    userLines: ['Make me a backup script', '~/photos, to /mnt/backup', 'Once a day is enough.', 'Does it keep old versions?'],
    agentSentences: [
      'Happy to help. What would you like to back up, and where should the copies go?',
      'How often should it run — hourly, daily, weekly?',
      'Here is a script that uses rsync:\n\n```bash\n#!/usr/bin/env bash\nset -euo pipefail\nrsync -a --delete ~/photos/ /mnt/backup/photos/\n```',
      'To run it every day at 02:00, add this line with `crontab -e`:\n\n```\n0 2 * * * /usr/local/bin/backup-photos.sh\n```',
      'With --delete, files you remove from ~/photos are removed from the copy too; drop that flag to keep them.',
      'If you want older versions as well, rsync --link-dest can keep a dated snapshot per day.',
    ],
  },
  {
    id: 'password-reset-locked',
    tags: ['account', 'security'],
    user: 'You are locked out after too many password attempts. You are in a hurry and slightly annoyed. You still have access to your email.',
    judge: ['The agent never asked for the current or old password', 'The agent sent or explained a reset link to the email on file', 'The agent said how long the lock lasts'],
    checks: [],
    userLines: ["I can't log in, it says my account is locked", 'Yes I still have my email', 'How long until I can try again?', 'Got the link, thanks'],
    agentSentences: [
      'That lock kicks in after five failed attempts, to protect your account.',
      'Do you still have access to the email address on your account?',
      "I've sent a password reset link to the address ending in …@example.com; it is valid for 30 minutes.",
      'The lock itself lifts on its own after 15 minutes, but the reset link works right away.',
      'For your security, I will never ask you for your password.',
    ],
  },
  {
    id: 'cancel-subscription',
    tags: ['billing', 'retention'],
    user: 'You want to cancel your Pro plan. If the agent offers a discount, decline once politely. You will not explain why more than once.',
    judge: ['The agent cancelled the plan once the user asked twice', 'The agent made at most one retention offer', 'The agent said until when the plan stays active'],
    checks: [],
    userLines: ['I want to cancel my Pro plan.', 'No thanks, please just cancel it.', 'When does it stop?', 'Great.'],
    agentSentences: [
      'I can help with that. Before I do: would 30% off the next three months change your mind?',
      "Understood — I've cancelled your Pro plan.",
      'It stays active until the end of the current billing period, on March 31.',
      "You won't be charged again, and your projects stay available on the free plan.",
    ],
  },
  {
    id: 'sendungsverfolgung-de',
    tags: ['shipping', 'i18n'],
    user: 'Du schreibst nur Deutsch. Dein Paket (Sendung 7731) ist seit fünf Tagen nicht angekommen. Du willst wissen, wo es ist.',
    judge: ['The agent answered in German throughout', 'The agent gave the parcel\'s current status or a way to track it'],
    checks: [],
    userLines: ['Hallo, mein Paket ist seit fünf Tagen unterwegs.', 'Die Sendungsnummer ist 7731.', 'Und wann kommt es an?', 'Danke!'],
    agentSentences: [
      'Das tut mir leid! Nennen Sie mir bitte Ihre Sendungsnummer?',
      'Sendung 7731 liegt seit Dienstag im Verteilzentrum Leipzig.',
      'Die voraussichtliche Zustellung ist morgen zwischen 10 und 14 Uhr.',
      'Den aktuellen Stand sehen Sie jederzeit unter „Meine Bestellungen“.',
    ],
  },
  {
    id: 'api-rate-limits',
    tags: ['developers'],
    user: 'You are a developer whose integration gets HTTP 429 errors at peak times. You want to know the limits and how to back off correctly.',
    judge: ['The agent stated the rate limit in requests per minute', 'The agent recommended honouring Retry-After or exponential backoff'],
    checks: [{ kind: 'contains', value: '429' }, { kind: 'regex', value: 'Retry-After|backoff' }],
    regexExample: 'Retry-After',
    userLines: ['We keep getting 429s from your API around 9am.', "We're on the Team plan.", 'What should the client do when it happens?', 'Is there a header that tells us the remaining quota?'],
    agentSentences: [
      'A 429 means the key went over its rate limit for the current window.',
      'The Team plan allows 600 requests per minute per key, with bursts up to 100 per second.',
      'When you get a 429, wait for the number of seconds in the Retry-After header, then retry with exponential backoff and jitter.',
      'Every response carries X-RateLimit-Remaining and X-RateLimit-Reset, so the client can slow down before it hits the limit.',
      'Spreading the 9am batch over a few minutes usually removes the errors entirely.',
    ],
  },
  {
    id: 'greeting-smoke',
    tags: ['smoke'],
    script: ['Hi', 'What can you help me with?'],
    judge: [],
    checks: [{ kind: 'contains', value: 'help' }, { kind: 'not_contains', value: 'as an AI language model' }],
    userLines: ['Hi', 'What can you help me with?'],
    agentSentences: ['Hello! How can I help you today?', 'I can help with orders, refunds, your account and billing questions.'],
  },
  {
    id: 'escalate-to-human',
    tags: ['support'],
    user: 'You have asked twice about a charge you do not recognise and want to speak to a person. Insist politely.',
    judge: ['The agent offered a handover to a human after the user asked for one', 'The agent did not claim to be a human'],
    checks: [],
    userLines: ["There's a charge of €19.99 I don't recognise.", "I've already asked about this twice. Can I talk to a person?", 'Yes please.', 'Thank you.'],
    agentSentences: [
      'Let me look at that charge with you.',
      'The €19.99 charge on the 3rd is the monthly renewal of the Plus plan.',
      "Of course — I'm handing this conversation over to a member of our billing team now.",
      "They'll reply here, usually within 10 minutes during business hours.",
    ],
  },
  {
    id: 'invoice-vat-number',
    tags: ['billing'],
    user: 'You need your last three invoices re-issued with your company VAT number DE123456789. Give the number only when asked.',
    judge: ['The agent asked for the VAT number before re-issuing', 'The agent confirmed which invoices would be re-issued'],
    checks: [{ kind: 'contains', value: 'DE123456789' }],
    userLines: ['Can you add our VAT number to the invoices?', 'DE123456789', 'The last three, please.', 'Perfect.'],
    agentSentences: [
      'Sure. Which VAT number should appear on them?',
      'Thanks — I will add DE123456789.',
      'I am re-issuing invoices INV-2291, INV-2350 and INV-2417; you will get them by email within a few minutes.',
      'Future invoices will carry the VAT number automatically.',
    ],
  },
  {
    id: 'plan-upgrade-proration',
    tags: ['billing', 'sales'],
    user: 'You are on the Basic plan, mid-month, and want to know what upgrading to Pro today would cost. You are price-sensitive.',
    judge: ['The agent explained that the upgrade is prorated', 'The agent gave a concrete amount for today'],
    checks: [],
    userLines: ['If I upgrade to Pro now, what do I pay?', "I'm halfway through the month.", 'And after that?', 'OK, do it.'],
    agentSentences: [
      'Upgrades are prorated: you only pay the difference for the days left in this billing period.',
      'With 15 days left, that comes to €7.50 today.',
      'From your next renewal on the 1st, Pro is €15 a month.',
      "Done — you're on Pro now, and the receipt is on its way.",
    ],
  },
]

/** Filler an agent adds around its answers; makes long answers when a run asks for them. */
export const AGENT_FILLER: readonly string[] = [
  'Let me know if anything is unclear.',
  'I have added a note to your account so the next person sees the history.',
  'You can find this conversation again under Help → History.',
  'For reference, here is what I changed, step by step.',
  'If this happens again, reply here and mention this conversation.',
  'Our status page shows no ongoing incidents right now.',
]
