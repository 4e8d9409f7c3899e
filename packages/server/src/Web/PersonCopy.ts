/**
 * "What I hold about X" on a person's page: the two downloads of the subject-access copy
 * (`SubjectAccess.ts`), as Markdown and as JSON, each an attachment named after the person. The
 * page links them (`Pages.ts`, `heldSection`).
 */
import { HttpServerResponse } from "@effect/platform"
import { attachmentOf, SubjectAccessCopy } from "@verbatim/domain/SubjectAccess/Copy"
import { PersonId } from "@verbatim/domain/Ids"
import { renderCopy } from "@verbatim/domain/SubjectAccess/Markdown"
import { Effect, Option, Schema } from "effect"
import { copyOf } from "../SubjectAccess.js"
import { aboutPerson } from "./ReadRoutes.js"
import { param } from "./Routing.js"
import { signedInFile } from "./Viewer.js"

/** A download: never cached, never run or shown inline by the browser. */
const download = (body: string, contentType: string, disposition: string) =>
  HttpServerResponse.text(body, {
    contentType,
    headers: {
      "content-disposition": disposition,
      "content-security-policy": "default-src 'none'; sandbox",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "cache-control": "no-store"
    }
  })

/** `/people/:id/export.<extension>`: the copy as `render` writes it; a person merged away leads to whom they joined. */
const copyRoute = (extension: "md" | "json", contentType: string, render: (copy: SubjectAccessCopy) => Effect.Effect<string>) =>
  aboutPerson(
    `/export.${extension}`,
    signedInFile("people", ({ subject }) =>
      Effect.gen(function*() {
        const copy = yield* copyOf(subject, PersonId.make(yield* param("id")))
        if (Option.isNone(copy)) return Option.none()
        return Option.some(yield* download(yield* render(copy.value), contentType, attachmentOf(copy.value.person.name, extension)))
      }), "person")
  )

/** `GET /people/:id/export.md`: the copy for people to read. */
export const markdownCopy = copyRoute("md", "text/markdown; charset=utf-8", (copy) => Effect.succeed(renderCopy(copy)))

/** `GET /people/:id/export.json`: the copy as `SubjectAccessCopy` encodes it, indented. */
export const jsonCopy = copyRoute(
  "json",
  "application/json; charset=utf-8",
  (copy) => Effect.map(Effect.orDie(Schema.encode(SubjectAccessCopy)(copy)), (encoded) => `${JSON.stringify(encoded, null, 2)}\n`)
)
