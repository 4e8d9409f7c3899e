/**
 * One answer for every request the contract cannot decode: a 400 `BadRequest` whose message
 * names each bad parameter or body field and what it allows (`status must be one of open,
 * answered`), bounded in size. The platform's own 400 carries the schema as TypeScript text.
 */
import { HttpApiBuilder, HttpApiError, HttpServerError } from "@effect/platform"
import { Api, BadRequest } from "@verbatim/domain/Api"
import { cut, maxIssueLength, summarise } from "@verbatim/domain/IssueSummary"
import { Cause, Effect } from "effect"

const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`)).join("")

/** `name message`; the whole body when the path is empty; the schema's `Expected …` read as `must be …`. */
const describeIssue = (issue: typeof HttpApiError.Issue.Type): string => {
  const message = issue.message.startsWith("Expected ") ? `must be ${issue.message.slice("Expected ".length)}` : issue.message
  return `${issue.path.length === 0 ? "body" : formatPath(issue.path)} ${message}`
}

/** The `BadRequest` for the platform's decode error, or for a body that is not JSON at all. */
export const toBadRequest = (error: unknown): BadRequest | undefined => {
  if (error instanceof HttpApiError.HttpApiDecodeError) return new BadRequest({ message: summarise(error.issues.map(describeIssue)) })
  if (HttpServerError.isServerError(error) && error._tag === "RequestError" && error.reason === "Decode") {
    return new BadRequest({ message: cut(`body is not JSON: ${String(error.cause)}`, maxIssueLength) })
  }
  return undefined
}

/** The API-level middleware: a payload that is not JSON dies in the platform, so defects are looked at too. */
export const layer = HttpApiBuilder.middleware(Api, (app) =>
  Effect.catchAllCause(app, (cause) => {
    const badRequest = toBadRequest(Cause.squash(cause))
    return badRequest === undefined ? Effect.failCause(cause) : Effect.fail(badRequest)
  }))
