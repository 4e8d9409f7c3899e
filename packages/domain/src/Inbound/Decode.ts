/** Webhook bodies from raw text to provider schemas, with errors that say which field was wrong. */
import { Either, ParseResult, Schema } from "effect"
import { Provider } from "../Ids.js"
import { cut, maxIssueLength, summarise } from "../IssueSummary.js"
import { maxNesting, nesting } from "./bodyShape.js"
import * as Telegram from "./Telegram.js"
import * as WhatsApp from "./WhatsApp.js"

/** A webhook body that is not JSON or not the provider's shape; `message` says which field and what was expected. */
export class WebhookDecodeError extends Schema.TaggedError<WebhookDecodeError>()("WebhookDecodeError", {
  provider: Provider,
  message: Schema.String
}) {}

const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`)).join("")

/** Bounded (`IssueSummary.summarise`): a body with thousands of bad entries gets a short answer. */
const describe = (label: string, error: ParseResult.ParseError): string =>
  `${label}: ` +
  summarise(
    ParseResult.ArrayFormatter.formatErrorSync(error)
      .map((issue) => (issue.path.length === 0 ? issue.message : `${formatPath(issue.path)}: ${issue.message}`))
  )

const decoder = <A, I>(provider: Provider, label: string, schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknownEither(schema, { errors: "all" })
  return (body: string): Either.Either<A, WebhookDecodeError> => {
    const json = Either.try(() => JSON.parse(body) as unknown)
    if (Either.isLeft(json)) {
      return Either.left(new WebhookDecodeError({ provider, message: cut(`body is not JSON: ${String(json.left)}`, maxIssueLength) }))
    }
    if (nesting(json.right) > maxNesting) {
      return Either.left(new WebhookDecodeError({ provider, message: `body nests deeper than ${maxNesting} levels` }))
    }
    return Either.mapLeft(decode(json.right), (error) => new WebhookDecodeError({ provider, message: describe(label, error) }))
  }
}

/** Parse and decode the raw text of a Telegram webhook body. */
export const decodeTelegram: (body: string) => Either.Either<Telegram.Update, WebhookDecodeError> = decoder(
  "telegram",
  "not a Telegram Update",
  Telegram.Update
)

/** Parse and decode the raw text of a WhatsApp Cloud API webhook body. */
export const decodeWhatsApp: (body: string) => Either.Either<WhatsApp.Body, WebhookDecodeError> = decoder(
  "whatsapp",
  "not a WhatsApp webhook body",
  WhatsApp.Body
)
