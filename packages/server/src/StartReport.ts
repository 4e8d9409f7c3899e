/**
 * What `serve` says at start: as JSON log lines, one fact a line, or as the block a person at a
 * terminal reads (where to open, how to sign in, what is not configured) in at most 100 columns.
 */
import type { OperatorReadsMode } from "@verbatim/domain/OperatorReads/Mode"
import { Option } from "effect"

/** Said at start-up when no model is configured. */
export const noModelNotice = "no model key: messages are captured and held; planning resumes once ANTHROPIC_API_KEY is set"

/** Said at start-up when no transcription server is configured. */
export const noTranscriberNotice =
  "no transcription server: voice notes, audio and videos are fetched, stored and filed as untranscribed; set VERBATIM_TRANSCRIBE_URL to transcribe them"

/** Said at start-up when no image reader is configured. */
export const noImageReaderNotice =
  "no image reader: photos are fetched, stored and filed as unread; install tesseract-ocr to read them here, or set ANTHROPIC_API_KEY"

/** Said at start-up: what the operator reads of other users' data. */
export const operatorReadsNotice: { readonly [M in OperatorReadsMode]: string } = {
  none:
    "operator reads: none (VERBATIM_OPERATOR_READS): the API token and the operator's sign-in see other users' counts and accounting, never their text; set audited to read it with each read recorded where its user sees it, or all",
  audited: "operator reads: audited (VERBATIM_OPERATOR_READS): the operator reads other users' text, and each read is recorded where its user sees it",
  all: "operator reads: all (VERBATIM_OPERATOR_READS): the operator reads every user's text, unrecorded"
}

/** What `serve` says at start, gathered once for either format. */
export interface StartReport {
  /** Where the server listens. */
  readonly address: string
  /** Where the web pages open: `VERBATIM_PUBLIC_URL`, or the address. */
  readonly pages: string
  readonly publicUrlSet: boolean
  /** The database: its file, or PostgreSQL. */
  readonly data: string
  readonly operatorReads: OperatorReadsMode
  readonly token: {
    readonly value: string
    readonly source: "file" | "environment"
    readonly path: string | null
    readonly generated: boolean
  }
  /** Each setting left unset and what that means, the model key's included. */
  readonly notConfigured: ReadonlyArray<string>
  /** The models that transcribe voice notes and read photos, where one does. */
  readonly transcriber: Option.Option<string>
  readonly imageReader: Option.Option<string>
}

const transcribedWith = (model: string) => `voice notes, audio and videos transcribed with ${model} (VERBATIM_TRANSCRIBE_URL)`
const readWith = (model: string) => `photos read with ${model}`

/** The report as JSON log lines, one fact a line. */
export const lines = (report: StartReport): ReadonlyArray<string> => [
  `verbatim listening on ${report.address}`,
  `data: ${report.data}`,
  `web pages: ${report.pages}/ (sign in with the API token to read, search, and capture messages at /compose; /web in a chat sends a user their link${
    report.publicUrlSet ? "" : " once VERBATIM_PUBLIC_URL is set"
  })`,
  operatorReadsNotice[report.operatorReads],
  ...(report.token.generated ? [`API token (generated, kept in ${report.token.path}): ${report.token.value}`] : []),
  ...report.notConfigured,
  Option.match(report.transcriber, { onNone: () => noTranscriberNotice, onSome: transcribedWith }),
  Option.match(report.imageReader, { onNone: () => noImageReaderNotice, onSome: readWith })
]

const width = 100

/** `text` broken at spaces into lines of at most `width` columns, the first after `first`, the rest after `rest`. */
export const wrap = (text: string, first: string, rest: string): ReadonlyArray<string> => {
  const lines: Array<string> = []
  let line = first
  let empty = true
  for (const word of text.split(" ")) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line)
      line = rest + word
    } else {
      line = empty ? line + word : `${line} ${word}`
    }
    empty = false
  }
  return [...lines, line]
}

const reads: { readonly [M in OperatorReadsMode]: string } = {
  none: "none: the operator sees other users' counts and accounting, never their text",
  audited: "audited: the operator reads other users' text, each read recorded where its user sees it",
  all: "all: the operator reads every user's text, unrecorded"
}

const signIn = (token: StartReport["token"]): ReadonlyArray<string> =>
  token.generated
    ? [token.value, `(generated, kept in ${token.path ?? ""})`]
    : [token.source === "environment" ? "with the token VERBATIM_API_TOKEN holds" : `with the token kept in ${token.path ?? ""}`]

const row = (label: string, text: string) => wrap(text, `  ${label.padEnd(9)}`, " ".repeat(11))

/** The block, one string per line. */
export const block = (report: StartReport): ReadonlyArray<string> => {
  const readers = [...Option.toArray(Option.map(report.transcriber, transcribedWith)), ...Option.toArray(Option.map(report.imageReader, readWith))]
  const unset = [
    ...report.notConfigured,
    ...(Option.isNone(report.transcriber) ? [noTranscriberNotice] : []),
    ...(Option.isNone(report.imageReader) ? [noImageReaderNotice] : []),
    ...(report.publicUrlSet ? [] : ["VERBATIM_PUBLIC_URL is not set: /web in a chat cannot send a user their link"])
  ]
  return [
    "Verbatim is running.",
    "",
    ...row("Open", `${report.pages}/`),
    ...signIn(report.token).flatMap((line, i) => row(i === 0 ? "Sign in" : "", line)),
    ...row("Data", report.data),
    ...row("Reads", `${reads[report.operatorReads]} (VERBATIM_OPERATOR_READS)`),
    ...readers.flatMap((reader, i) => row(i === 0 ? "Media" : "", reader)),
    "",
    ...(unset.length === 0 ? ["Everything is configured."] : ["Not configured:", ...unset.flatMap((line) => wrap(line, "  - ", "    "))]),
    "",
    "Logs follow (Ctrl-C stops the server)."
  ]
}
