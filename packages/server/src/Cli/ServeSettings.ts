/**
 * The settings `serve` reads, as `serve --help` lists them (README.md's table has the detail).
 * Each line names every variable it stands for, so a test can hold the list to what the code reads.
 */

/** One line of the list: the variables as shown (shortened where they share a stem), their meaning, and each name in full. */
export interface ServeSetting {
  readonly shown: string
  readonly meaning: string
  readonly names: ReadonlyArray<string>
}

/** A line for `names`, shown as they are unless `shown` shortens them. */
const setting = (names: ReadonlyArray<string>, meaning: string, shown: string = names.join(", ")): ServeSetting => ({ shown, meaning, names })

const model = ["", "_TIMEOUT", "_MAX_ATTEMPTS", "_RETRY_BASE", "_RETRY_MAX", "_CONTEXT_WINDOW", "_MAX_TOKENS", "_TRUNCATED_MAX_TOKENS", "_REQUEST_OVERHEAD"]
const transcribe = ["_API_KEY", "_MODEL", "_LANGUAGE", "_TIMEOUT", "_WAIT", "_MAX_BYTES"]

export const serveSettings: ReadonlyArray<ServeSetting> = [
  setting(["PORT", "HOST"], "where to listen (8080 on 127.0.0.1)"),
  setting(["VERBATIM_DATA_DIR"], "the SQLite store and the API token (./data)"),
  setting(["VERBATIM_DATABASE_URL"], "postgres://… selects PostgreSQL"),
  setting(["VERBATIM_SQLITE_SYNCHRONOUS"], "FULL survives a power loss; NORMAL is faster"),
  setting(["VERBATIM_LOG_FORMAT"], "auto, json or text (as --log-format)"),
  setting(["VERBATIM_API_TOKEN"], "the API and operator token (generated when unset)"),
  setting(["VERBATIM_ALLOWED_SENDERS"], "whose messages are captured: telegram:ID,whatsapp:PHONE"),
  setting(["VERBATIM_PUBLIC_URL"], "the address people reach the web pages at"),
  setting(["VERBATIM_OPERATOR_READS"], "none, audited or all: the operator's reads of others' text"),
  setting(["VERBATIM_SESSION_IDLE_SECONDS"], "silence that closes a chat session (30)"),
  setting(["VERBATIM_WEB_SESSION_IDLE_SECONDS"], "silence that closes a session typed on the pages (900)"),
  setting(["VERBATIM_DEFAULT_TIMEZONE"], "every user's zone until they set one (UTC)"),
  setting(["VERBATIM_TRUSTED_PROXIES"], "reverse proxies whose X-Forwarded-For is believed"),
  setting(["VERBATIM_METRICS_PUBLIC"], "false puts /metrics behind the API token"),
  setting(["VERBATIM_MAX_BODY_BYTES", "VERBATIM_MAX_REQUEST_BYTES"], "largest webhook and API bodies", "VERBATIM_MAX_BODY_BYTES, …_REQUEST_BYTES"),
  setting(
    ["VERBATIM_HEADERS_TIMEOUT_SECONDS", "VERBATIM_REQUEST_TIMEOUT_SECONDS"],
    "how long a request may take to arrive",
    "VERBATIM_HEADERS_TIMEOUT_SECONDS, …_REQUEST_…"
  ),
  setting(
    ["VERBATIM_MAX_CONNECTIONS", "VERBATIM_MAX_CONNECTIONS_PER_ADDRESS"],
    "connections open at once (in all, from one address)",
    "VERBATIM_MAX_CONNECTIONS[_PER_ADDRESS]"
  ),
  setting(["VERBATIM_EVENTS_PAGE_BYTES"], "payload bytes of one GET /api/events page"),
  setting(["VERBATIM_LEASE_TTL_SECONDS"], "how long a job's lease outlives its holder"),
  setting(["VERBATIM_PACE_REPLIES"], "false sends replies unpaced by the providers' limits"),
  setting(["TELEGRAM_WEBHOOK_SECRET"], "Telegram webhooks are refused without it"),
  setting(["TELEGRAM_BOT_TOKEN"], "replies to Telegram are held without it"),
  setting(["TELEGRAM_BOT_USERNAME", "TELEGRAM_API_BASE"], "the bot's name; another Bot API server"),
  setting(["WHATSAPP_VERIFY_TOKEN", "WHATSAPP_APP_SECRET"], "WhatsApp webhooks are refused without them"),
  setting(
    ["WHATSAPP_ACCESS_TOKEN", "WHATSAPP_PHONE_NUMBER_ID"],
    "replies to WhatsApp are held without them",
    "WHATSAPP_ACCESS_TOKEN, …_PHONE_NUMBER_ID"
  ),
  setting(["WHATSAPP_API_BASE"], "another Graph API server"),
  setting(
    ["VERBATIM_WHATSAPP_REMINDER_TEMPLATE", "VERBATIM_WHATSAPP_REMINDER_TEMPLATE_LANGUAGE"],
    "template for reminders after 24 hours",
    "VERBATIM_WHATSAPP_REMINDER_TEMPLATE[_LANGUAGE]"
  ),
  setting(["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"], "the model; messages are held until the key is set"),
  setting(model.map((end) => `VERBATIM_MODEL${end}`), "the model's name, time limit, retries and token budget", "VERBATIM_MODEL, VERBATIM_MODEL_*"),
  setting(["VERBATIM_PROMPT_VERSION", "VERBATIM_PROMPT_DIR"], "the planning prompt (v2) and where prompts are"),
  setting(
    ["VERBATIM_PROMPT_CONTACT_RESERVE", "VERBATIM_PROMPT_MAX_CONTACTS"],
    "room for the contact list in a prompt",
    "VERBATIM_PROMPT_CONTACT_RESERVE, …_MAX_CONTACTS"
  ),
  setting(
    ["VERBATIM_ASK_PROMPT_VERSION", "VERBATIM_ASK_MAX_QUOTES"],
    "the ask prompt; quotes an answer in a chat shows",
    "VERBATIM_ASK_PROMPT_VERSION, …_MAX_QUOTES"
  ),
  setting(["VERBATIM_CASSETTE_DIR"], "recorded model answers instead of Anthropic"),
  setting(["VERBATIM_TRANSCRIBE_URL"], "the transcription server; voice notes wait untranscribed"),
  setting(transcribe.map((end) => `VERBATIM_TRANSCRIBE${end}`), "its API key, model, language, timeout, wait and upload size", "VERBATIM_TRANSCRIBE_*"),
  setting(["VERBATIM_VISION", "VERBATIM_VISION_MODEL", "VERBATIM_VISION_TIMEOUT"], "what reads photos (anthropic, tesseract, none) and how", "VERBATIM_VISION, VERBATIM_VISION_*"),
  setting(["VERBATIM_OCR_LANGUAGES"], "Tesseract's languages (eng)"),
  setting(["VERBATIM_DOCUMENT_MAX_CHARS"], "characters of a document's text kept in its note")
]
