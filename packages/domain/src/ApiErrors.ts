/** The HTTP contract's errors and its bearer-token middleware, shared by every group of the API. */
import { HttpApiEndpoint, HttpApiMiddleware, HttpApiSchema, HttpApiSecurity, OpenApi } from "@effect/platform"
import { Schema } from "effect"

/** A body or parameter that does not parse; `message` names the field and what was expected. */
export class BadRequest extends Schema.TaggedError<BadRequest>()("BadRequest", { message: Schema.String }, HttpApiSchema.annotations({ status: 400 })) {}

/** A missing or wrong secret, signature, verify token or bearer token. */
export class Unauthorized
  extends Schema.TaggedError<Unauthorized>()("Unauthorized", { message: Schema.String }, HttpApiSchema.annotations({ status: 401 }))
{}

export class NotFound extends Schema.TaggedError<NotFound>()(
  "NotFound",
  { resource: Schema.Literal("person", "note", "question", "session", "reminder", "ask", "message"), id: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** A request that contradicts recorded state, such as answering a question already answered. */
export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", { message: Schema.String }, HttpApiSchema.annotations({ status: 409 })) {}

/** A body, or one message in it, over its limit; `message` says which, when it is not the whole body. */
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()(
  "PayloadTooLarge",
  { limitBytes: Schema.Number, message: Schema.optionalWith(Schema.String, { exact: true }) },
  HttpApiSchema.annotations({ status: 413 })
) {}

/**
 * A read the operator is not shown: another user's text under `VERBATIM_OPERATOR_READS=none` (or
 * the whole event log under `none` and `audited`); `message` names the setting and what to set.
 */
export class OperatorReadRefused
  extends Schema.TaggedError<OperatorReadRefused>()("OperatorReadRefused", { message: Schema.String }, HttpApiSchema.annotations({ status: 403 }))
{}

/** `/readyz` when a dependency (the database) is unreachable. */
export class NotReady extends Schema.TaggedError<NotReady>()("NotReady", { message: Schema.String }, HttpApiSchema.annotations({ status: 503 })) {}

/** Bearer token (`VERBATIM_API_TOKEN`) in front of every `/api` endpoint. */
export class Authorization extends HttpApiMiddleware.Tag<Authorization>()("@verbatim/domain/Api/Authorization", {
  failure: Unauthorized,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/** A change to one thing the API names: a POST answered 404 when it is not there and 409 when it cannot take the change. */
export const changeEndpoint = <Name extends string, Path extends `/${string}`>(name: Name, path: Path, summary: string, description: string) =>
  HttpApiEndpoint.post(name, path).annotate(OpenApi.Summary, summary).annotate(OpenApi.Description, description).addError(NotFound).addError(Conflict)
