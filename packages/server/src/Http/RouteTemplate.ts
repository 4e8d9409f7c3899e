/**
 * A request path as the route template it matched (`/api/notes/:id`), for metric labels: the raw
 * path would make a label value per note id, which Prometheus keeps as a series each.
 */
import { HttpApi } from "@effect/platform"
import { Api } from "@verbatim/domain/Api"

/** The label of a path no route matches. */
export const unmatched = "unmatched"

const paths: Array<string> = ["/openapi.json"]
HttpApi.reflect(Api, {
  onGroup: () => {},
  onEndpoint: ({ endpoint }) => {
    if (!paths.includes(endpoint.path)) paths.push(endpoint.path)
  }
})

/** Templates by segment count; literal segments are preferred to parameters, as the router does. */
const templates = paths
  .map((path) => ({ path, segments: path.split("/") }))
  .sort((a, b) => a.segments.filter((s) => s.startsWith(":")).length - b.segments.filter((s) => s.startsWith(":")).length)

/** Every route template the server answers. */
export const all: ReadonlyArray<string> = [...paths].sort()

/** The template `url`'s path matches, or `unmatched`. */
export const templateOf = (url: string): string => {
  const query = url.indexOf("?")
  const segments = (query === -1 ? url : url.slice(0, query)).split("/")
  const found = templates.find((t) =>
    t.segments.length === segments.length && t.segments.every((s, i) => s.startsWith(":") ? segments[i] !== "" : s === segments[i])
  )
  return found?.path ?? unmatched
}
