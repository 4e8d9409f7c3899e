/** What `--help` says of each command: its usage, one line of purpose, its options, an example. */

/** One command's help. */
export interface CommandHelp {
  readonly usage: string
  readonly summary: string
  readonly options: ReadonlyArray<readonly [string, string]>
  readonly example: string
}

const user = ["--user ID", "whose sessions: telegram:ID or whatsapp:ID"] as const
const importOptions = [
  user,
  ["--idle SECONDS", "silence that starts a new session (default 3600)"],
  ["--quiet", "send the user no summary reply"],
  ["--dry-run", "list what would be added and what the log has; change nothing"]
] as const
const whatsApp = [
  ["--date-order dmy|mdy", "day/month order of the dates (read from the file when omitted)"],
  ["--tz ZONE", "the zone the phone wrote the times in, e.g. Europe/Lisbon (default UTC)"],
  ["--chat NAME", "names the chat in the messages' ids (default: the export's first line)"]
] as const

/** Each command by its words after `verbatim`. */
export const commandHelp: { readonly [command: string]: CommandHelp } = {
  serve: {
    usage: "verbatim serve [--log-format auto|json|text]",
    summary: "Run the service: webhooks, read API and web pages, scheduler and reply outbox.",
    options: [["--log-format", "text on a terminal, JSON lines when piped (auto); VERBATIM_LOG_FORMAT"]],
    example: "PORT=8080 verbatim serve --log-format json > verbatim.log"
  },
  rebuild: {
    usage: "verbatim rebuild [--verify]",
    summary: "Rebuild every projection from the event log (on PostgreSQL while capture goes on).",
    options: [["--verify", "rebuild into a scratch copy, compare each table, change nothing"]],
    example: "verbatim rebuild --verify"
  },
  replay: {
    usage: "verbatim replay --prompt VERSION [options] | replay compare A B | replay asks",
    summary: "Re-plan recorded sessions under another prompt or model, in the shadow; score them.",
    options: [
      ["--prompt VERSION", "the prompt to plan under (prompts/<version>.md)"],
      ["--model NAME", "a model instead of VERBATIM_MODEL"],
      ["--session ID", "only this session (repeatable); --since DATE: opened since"],
      ["--format FORMAT", "text, json, markdown or junit (--json: json)"],
      ["--repeat K", "plan each session K times to measure the noise floor"],
      ["--noise-floor S", "disagreement treated as noise (0 to 1); --noise-floor-from AA.json"],
      ["--aa", "plan the live prompt against itself (an A/A run)"],
      ["--batch", "through the Message Batches API, half price; --batch-state FILE"],
      ["--fail-on-regression", "exit 1 on FAIL"],
      ["--publish", "keep the report for the web pages (/replays)"],
      ["--promote [--yes]", "supersede the live plans; without --yes, say what would change"]
    ],
    example: "verbatim replay --prompt v3 --repeat 3 --format markdown"
  },
  "replay compare": {
    usage: "verbatim replay compare A.json B.json",
    summary: "Two saved JSON replay reports side by side: inputs, agreement, sessions scored apart.",
    options: [],
    example: "verbatim replay compare before.json after.json"
  },
  "replay asks": {
    usage: "verbatim replay asks [--prompt VERSION] [--model NAME] [--user ID]",
    summary: "Ask recorded questions again under another ask prompt or model, in the shadow.",
    options: [
      ["--prompt VERSION", "the ask prompt (prompts/ask/<version>.md)"],
      ["--model NAME", "a model instead of VERBATIM_MODEL"],
      ["--user ID", "only this user's questions"]
    ],
    example: "verbatim replay asks --prompt v2 --user telegram:100000001"
  },
  eval: {
    usage: "verbatim eval [--prompt VERSION] [--asks] [--live] [--record] [--cassettes DIR]",
    summary: "Score a prompt on the shipped evaluation set, offline from recorded answers.",
    options: [
      ["--prompt VERSION", "the prompt to score (default: the configured one)"],
      ["--asks", "score the ask prompt on the ask set instead"],
      ["--live", "ask the real model (ANTHROPIC_API_KEY) and record its answers"],
      ["--record", "write each case's authored answer as the prompt's cassette"],
      ["--cassettes DIR", "where the recorded answers are"]
    ],
    example: "verbatim eval --prompt v2"
  },
  audit: {
    usage: "verbatim audit NOTE_ID",
    summary: "A note's body traced to its source messages, the cuts struck through, and the plan.",
    options: [],
    example: "verbatim audit note_0b7c…"
  },
  accounting: {
    usage: "verbatim accounting SESSION",
    summary: "Every message of a session and its one disposition.",
    options: [],
    example: "verbatim accounting telegram:100000001:100000001:1"
  },
  import: {
    usage: "verbatim import telegram-export FILE | whatsapp-export FILE --user ID [options]",
    summary: "Import a chat export as forwarded messages, only those the log does not have.",
    options: importOptions,
    example: "verbatim import telegram-export result.json --user telegram:100000001 --dry-run"
  },
  "import telegram-export": {
    usage: "verbatim import telegram-export result.json --user ID [options]",
    summary: "Import Telegram Desktop's \"Export chat history\" (JSON).",
    options: importOptions,
    example: "verbatim import telegram-export result.json --user telegram:100000001"
  },
  "import whatsapp-export": {
    usage: "verbatim import whatsapp-export chat.txt --user ID [options]",
    summary: "Import WhatsApp's \"Export chat\" (text, without media).",
    options: [...importOptions, ...whatsApp],
    example: "verbatim import whatsapp-export chat.txt --user whatsapp:15550001111 --tz Europe/Lisbon"
  },
  reconcile: {
    usage: "verbatim reconcile EXPORT --user ID [--date-order dmy|mdy] [--tz ZONE] [--chat NAME]",
    summary: "List the messages of a chat export the log lacks; reads only.",
    options: [user, ...whatsApp],
    example: "verbatim reconcile result.json --user telegram:100000001"
  },
  retry: {
    usage: "verbatim retry SESSION",
    summary: "Plan a closed session now: again after a failed plan, or one not yet planned.",
    options: [],
    example: "verbatim retry telegram:100000001:100000001:1"
  },
  retranscribe: {
    usage: "verbatim retranscribe MESSAGE | --session ID",
    summary: "Read a message's or a session's attachments again with the readers set now.",
    options: [["--session ID", "every attachment of this session"]],
    example: "verbatim retranscribe --session telegram:100000001:100000001:1"
  },
  events: {
    usage: "verbatim events [--after CURSOR] [--follow]",
    summary: "The event log as JSON lines, each with its cursor.",
    options: [["--after CURSOR", "start after this cursor (a line's \"cursor\", like 0:42)"], ["--follow", "keep printing new events"]],
    example: "verbatim events --after 0:42 --follow"
  },
  demo: {
    usage: "verbatim demo [--record]",
    summary: "The offline end-to-end demo on a temporary store, with recorded model answers.",
    options: [["--record", "re-write the demo's cassette from demo/plan.json"]],
    example: "npm run demo"
  },
  backup: {
    usage: "verbatim backup FILE",
    summary: "Copy the store to a new file while the server runs (PostgreSQL: says how).",
    options: [],
    example: "verbatim backup /backups/verbatim-2025-06-01.db"
  },
  restore: {
    usage: "verbatim restore FILE",
    summary: "Restore a backup into an empty data directory (PostgreSQL: says how).",
    options: [],
    example: "VERBATIM_DATA_DIR=./restored verbatim restore /backups/verbatim-2025-06-01.db"
  },
  export: {
    usage: "verbatim export markdown DIR",
    summary: "Export the notes.",
    options: [],
    example: "verbatim export markdown ./notes"
  },
  "export markdown": {
    usage: "verbatim export markdown DIR",
    summary: "Every note as Markdown, a page per person (Obsidian-compatible front matter).",
    options: [],
    example: "verbatim export markdown ./notes"
  },
  forget: {
    usage: "verbatim forget --note ID | --person ID | --message ID | --user ID [--yes]",
    summary: "Forget a note, a person, a message or a user's everything, from every byte kept.",
    options: [["--note, --person, --message, --user", "what to forget"], ["--yes", "forget it; without it, say what would be gone"]],
    example: "verbatim forget --person person_5f2a… --yes"
  }
}
