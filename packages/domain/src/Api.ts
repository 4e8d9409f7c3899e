/** The HTTP contract: webhooks, the bearer-protected read API and health. Server and clients derive from it. */
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authorization, BadRequest, Conflict, NotFound, NotReady, OperatorReadRefused, PayloadTooLarge, Unauthorized } from "./ApiErrors.js"
import * as R from "./ApiResponses.js"
import { CaptureGroup } from "./CaptureApi.js"
import { CurationGroup } from "./CurationApi.js"
import { ForgetGroup } from "./ForgetApi.js"
import { MessageId, NoteId, PersonId, QuestionId, SessionId, UserId } from "./Ids.js"
import * as Telegram from "./Inbound/Telegram.js"
import * as WhatsApp from "./Inbound/WhatsApp.js"
import { AskGroup } from "./AskApi.js"
import { RemindersGroup } from "./RemindersApi.js"
import { SubjectAccessCopy } from "./SubjectAccess/Copy.js"
import { version } from "./Version.js"

export { Authorization, BadRequest, Conflict, NotFound, NotReady, OperatorReadRefused, PayloadTooLarge, Unauthorized } from "./ApiErrors.js"

/** Webhooks acknowledge with an empty 200: providers only look at the status. */
const Ack = HttpApiSchema.Empty(200)

// Payload schemas document the bodies; handlers read the raw bytes (`handleRaw`) because the
// WhatsApp signature covers them exactly and decode errors must become a 400 with our message.
export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("telegram", "/webhooks/telegram")
      .annotate(OpenApi.Summary, "Receive a Telegram update")
      .annotate(OpenApi.Description, "Telegram's webhook, authenticated by the X-Telegram-Bot-Api-Secret-Token header. Each message is captured once (a redelivery records nothing), edits and button presses are applied; anything else is acknowledged and counted.")
      .setHeaders(Schema.Struct({ "x-telegram-bot-api-secret-token": Schema.optional(Schema.String) }))
      .setPayload(Telegram.Update)
      .addSuccess(Ack)
      .addError(BadRequest)
      .addError(Unauthorized)
      .addError(PayloadTooLarge)
  )
  .add(
    HttpApiEndpoint.get("whatsappVerify", "/webhooks/whatsapp")
      .annotate(OpenApi.Summary, "Answer WhatsApp's subscription check")
      .annotate(OpenApi.Description, "Meta's GET verification: echoes hub.challenge when hub.verify_token is WHATSAPP_VERIFY_TOKEN.")
      .setUrlParams(Schema.Struct({
        "hub.mode": Schema.String,
        "hub.verify_token": Schema.String,
        "hub.challenge": Schema.String
      }))
      .addSuccess(HttpApiSchema.Text())
      .addError(Unauthorized)
  )
  .add(
    HttpApiEndpoint.post("whatsapp", "/webhooks/whatsapp")
      .annotate(OpenApi.Summary, "Receive a WhatsApp Cloud API body")
      .annotate(OpenApi.Description, "Meta's webhook, authenticated by X-Hub-Signature-256 over the exact bytes. Every change of a batched body is walked; each message is captured once.")
      .setHeaders(Schema.Struct({ "x-hub-signature-256": Schema.optional(Schema.String) }))
      .setPayload(WhatsApp.Body)
      .addSuccess(Ack)
      .addError(BadRequest)
      .addError(Unauthorized)
      .addError(PayloadTooLarge)
  )
{}

// Each parameter's `message` follows its name in a 400 (`limit must be …`, see the server's
// DecodeErrors); `override` keeps one message for the parameter instead of one per failed step.
// Optional parameters are exact, so a bad value is not also reported as "not undefined".
const optionalParam = <A, I, R>(schema: Schema.Schema<A, I, R>) => Schema.optionalWith(schema, { exact: true })

const Limit = Schema.NumberFromString.pipe(
  Schema.int(),
  Schema.between(1, 500),
  Schema.annotations({ message: () => ({ message: "must be a whole number from 1 to 500", override: true }) })
)

/** Paging and tenancy shared by the list endpoints (people page by person id). */
const ListParams = {
  user: optionalParam(UserId),
  limit: optionalParam(Limit),
  cursor: optionalParam(Schema.String)
}

/** Lists in the order they were recorded page by log position: anything else is a 400, not the first page again. */
const PositionListParams = {
  ...ListParams,
  cursor: optionalParam(
    Schema.String.pipe(Schema.pattern(/^\d+$/, { message: () => "must be the nextCursor of an earlier page of this list" }))
  )
}

const StatusParam = R.QuestionStatus.annotations({
  message: () => ({ message: `must be one of ${R.QuestionStatus.literals.join(", ")}`, override: true })
})

export class ReadApiGroup extends HttpApiGroup.make("api")
  .add(HttpApiEndpoint.get("people", "/people")
      .annotate(OpenApi.Summary, "List people")
      .annotate(OpenApi.Description, "The people notes are about, by person id, with their note counts; `user` narrows to one user's. Under VERBATIM_OPERATOR_READS=none another user's people are listed without their names (`withheld` says why).").setUrlParams(Schema.Struct(ListParams)).addSuccess(R.PeoplePage))
  .add(
    HttpApiEndpoint.get("personNotes", "/people/:id/notes")
      .annotate(OpenApi.Summary, "List a person's notes")
      .annotate(OpenApi.Description, "A person's notes in the order they were recorded, each body derived from its source messages. Another user's person is a 403 under VERBATIM_OPERATOR_READS=none.")
      .setPath(Schema.Struct({ id: PersonId }))
      .setUrlParams(Schema.Struct(PositionListParams))
      .addSuccess(R.NotesPage)
      .addError(NotFound)
      .addError(OperatorReadRefused)
  )
  .add(
    HttpApiEndpoint.get("personExport", "/people/:id/export")
      .annotate(OpenApi.Summary, "Export everything held about a person")
      .annotate(OpenApi.Description, "The subject-access copy of a person: their names (now, before renames, and of the people merged into them), then every note filed under them in the order recorded, discarded ones apart, each with its body, owner, source messages as stored (sent and received times, edits, the attachments read and by which model), the instructions cut, the plan or answer that filed it and its user's changes. All notes, however many. A person merged away is exported as the person they joined. Another user's person is a 403 under VERBATIM_OPERATOR_READS=none.")
      .setPath(Schema.Struct({ id: PersonId }))
      .addSuccess(SubjectAccessCopy)
      .addError(NotFound)
      .addError(OperatorReadRefused)
  )
  .add(HttpApiEndpoint.get("note", "/notes/:id")
      .annotate(OpenApi.Summary, "Get a note")
      .annotate(OpenApi.Description, "One note with its body and its source messages. Another user's note is a 403 under VERBATIM_OPERATOR_READS=none.").setPath(Schema.Struct({ id: NoteId })).addSuccess(R.Note).addError(NotFound).addError(OperatorReadRefused))
  .add(
    HttpApiEndpoint.get("noteAudit", "/notes/:id/audit")
      .annotate(OpenApi.Summary, "Trace a note to its characters")
      .annotate(OpenApi.Description, "The body as slices of its source messages and separators, each source's text in parts by who wrote them (sender, transcriber or image reader with its model, rendering), the instructions cut with their offsets, the plan, prompt and model, merges and the answer that confirmed it. Another user's note is a 403 under VERBATIM_OPERATOR_READS=none.")
      .setPath(Schema.Struct({ id: NoteId }))
      .addSuccess(R.NoteAudit)
      .addError(NotFound)
      .addError(OperatorReadRefused)
  )
  .add(
    HttpApiEndpoint.get("questions", "/questions")
      .annotate(OpenApi.Summary, "List questions")
      .annotate(OpenApi.Description, "Questions the planner or a failure parked, with their messages and the answers offered; `status` narrows to open or answered ones. Under VERBATIM_OPERATOR_READS=none another user's questions are listed without their messages' text or the names offered (`withheld` says why).")
      .setUrlParams(Schema.Struct({ ...PositionListParams, status: optionalParam(StatusParam) }))
      .addSuccess(R.QuestionsPage)
  )
  .add(
    HttpApiEndpoint.post("answer", "/questions/:id/answer")
      .annotate(OpenApi.Summary, "Answer a question")
      .annotate(OpenApi.Description, "Files the question's messages as the answer says. Answering twice files once: the second answer is a 409.")
      .setPath(Schema.Struct({ id: QuestionId }))
      .setPayload(R.AnswerPayload)
      .addSuccess(R.AnswerResult)
      .addError(NotFound)
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.get("accounting", "/sessions/:id/accounting")
      .annotate(OpenApi.Summary, "Account for a session's messages")
      .annotate(OpenApi.Description, "Every message of a session with its dispositions: in a note, in a question, an instruction to the bot, or still awaiting a plan or a transcription. Under VERBATIM_OPERATOR_READS=none another user's session is accounted without its instructions' text or its reminders' words (`withheld` says why).")
      .setPath(Schema.Struct({ id: SessionId }))
      .addSuccess(R.SessionAccounting)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.get("search", "/search")
      .annotate(OpenApi.Summary, "Search notes and messages")
      .annotate(OpenApi.Description, "Messages whose text holds every word of `q` (case and accents folded), newest first, each with the note it is in; a note's body is its messages' text, so this finds notes too. `user` narrows to one user's. At most `limit` (50) a page; `before` is the `next` of the page before, and `next` is null on the last page. Under VERBATIM_OPERATOR_READS=none only the operator's own messages (`web:operator`) are searched, and `user` naming another user is a 403.")
      .setUrlParams(Schema.Struct({ q: Schema.String, user: optionalParam(UserId), limit: optionalParam(Limit), before: optionalParam(MessageId) }))
      .addSuccess(R.SearchResults)
      .addError(OperatorReadRefused)
  )
  .add(
    HttpApiEndpoint.get("events", "/events")
      .annotate(OpenApi.Summary, "Read the event log")
      .annotate(OpenApi.Description, "Events after a cursor in the order a catch-up reader follows them, a page at a time; `nextAfter` continues. The log holds every user's text: a 403 unless VERBATIM_OPERATOR_READS=all.")
      .setUrlParams(Schema.Struct({
        after: optionalParam(R.EventCursor),
        limit: optionalParam(Limit)
      }))
      .addSuccess(R.EventsPage)
      .addError(OperatorReadRefused)
  )
  .middleware(Authorization)
  .prefix("/api")
{}

/**
 * `/readyz` when the database answers: `ready`, or `degraded` with the reason while planning is
 * held on an operator's error (a refused key, an unknown model). Degraded is still 200: capture
 * works and must stay in rotation; only an unreachable database is 503 (`NotReady`).
 */
export const Readiness = Schema.Union(
  Schema.Struct({ status: Schema.Literal("ready") }),
  Schema.Struct({ status: Schema.Literal("degraded"), reason: Schema.String })
)
export type Readiness = typeof Readiness.Type

export class HealthGroup extends HttpApiGroup.make("health")
  .add(HttpApiEndpoint.get("healthz", "/healthz")
      .annotate(OpenApi.Summary, "Liveness")
      .annotate(OpenApi.Description, "200 while the process serves requests.").addSuccess(Schema.Struct({ status: Schema.Literal("ok") })))
  .add(
    HttpApiEndpoint.get("readyz", "/readyz")
      .annotate(OpenApi.Summary, "Readiness")
      .annotate(OpenApi.Description, "`ready` when the database answers; `degraded` (still 200) while planning is held on an operator's error; 503 when the database does not answer.").addSuccess(Readiness).addError(NotReady)
  )
  .add(HttpApiEndpoint.get("metrics", "/metrics")
      .annotate(OpenApi.Summary, "Prometheus metrics")
      .annotate(OpenApi.Description, "The service's metrics as Prometheus text (0.0.4); behind the API token when VERBATIM_METRICS_PUBLIC=false.").addSuccess(HttpApiSchema.Text({ contentType: "text/plain; version=0.0.4" })))
{}

/**
 * The whole service; `OpenApi.fromApi(Api)` is served at `/openapi.json`. A request that does
 * not decode answers `BadRequest` on every endpoint.
 */
export class Api extends HttpApi.make("verbatim")
  .add(WebhooksGroup)
  .add(ReadApiGroup)
  .add(CaptureGroup)
  .add(CurationGroup)
  .add(ForgetGroup)
  .add(RemindersGroup)
  .add(AskGroup)
  .add(HealthGroup)
  .addError(BadRequest)
  .annotate(OpenApi.Title, "Verbatim")
  .annotate(OpenApi.Version, version)
{}
