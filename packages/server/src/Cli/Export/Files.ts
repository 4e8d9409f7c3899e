/**
 * The export folder's files: the pages the export wrote before (found without following a link
 * and known by their front matter alone), the check that nothing else is in a page's place, and a
 * page written in pieces to an exclusive temporary file, then renamed over its target.
 */
import { randomBytes } from "node:crypto"
import { closeSync, constants, existsSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, writeSync } from "node:fs"
import { dirname, join } from "node:path"
import { isExported } from "./Markdown.js"

const chunk = 64 * 1024
const closing = Buffer.from("\n---\n")

/** Whether the file at `path` starts with front matter that marks it as the export's, read no further than that front matter's end; a link is no file. */
const markedAsOurs = (path: string): boolean => {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW)
  try {
    let head = Buffer.alloc(0)
    const buffer = Buffer.alloc(chunk)
    for (;;) {
      const read = readSync(fd, buffer, 0, chunk, head.length)
      const searchFrom = Math.max(3, head.length - closing.length)
      head = Buffer.concat([head, buffer.subarray(0, read)])
      if (head.length >= 4 && head.subarray(0, 4).toString("latin1") !== "---\n") return false
      const end = head.indexOf(closing, searchFrom)
      if (end !== -1) return isExported(head.subarray(0, end + closing.length).toString("utf8"))
      if (read === 0) return false
    }
  } finally {
    closeSync(fd)
  }
}

/**
 * Pages the export wrote earlier, found one folder deep under `dir`. Links are never followed: a
 * linked folder or page is not the export's, whatever it points at.
 */
const exportedBefore = (dir: string): Set<string> =>
  new Set(readdirSync(dir).flatMap((entry) => {
    const folder = join(dir, entry)
    if (!lstatSync(folder).isDirectory()) return []
    return readdirSync(folder)
      .filter((name) => name.endsWith(".md"))
      .map((name) => join(entry, name))
      .filter((path) => lstatSync(join(dir, path)).isFile() && markedAsOurs(join(dir, path)))
  }))

/** Whether a link is at `path` (dangling or not). */
const isLink = (path: string): boolean => {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
  }
}

/** Whether `path` (under `dir`) or the folder it is in is a link: writing there could land anywhere. */
const throughLink = (dir: string, path: string): boolean => [join(dir, dirname(path)), join(dir, path)].some(isLink)

/** The pages the export may write, or the first file in the way (nothing has been written then). */
export type Checked =
  | { readonly _tag: "Clear"; readonly ours: ReadonlySet<string> }
  | { readonly _tag: "NotOurs"; readonly path: string }

/**
 * Make `dir`, and check every page path (relative to it) before anything is written: a file the
 * export did not write in a page's place, or a link where a page or its folder goes, is in the way.
 */
export const check = (dir: string, paths: Iterable<string>): Checked => {
  mkdirSync(dir, { recursive: true })
  const ours = exportedBefore(dir)
  for (const path of paths) {
    if ((existsSync(join(dir, path)) || isLink(join(dir, path))) && !ours.has(path)) return { _tag: "NotOurs", path: join(dir, path) }
    if (throughLink(dir, path)) return { _tag: "NotOurs", path: join(dir, dirname(path)) }
  }
  return { _tag: "Clear", ours }
}

/** Whether the file open at `fd` holds exactly what the file at `path` does (a link there holds nothing). */
const sameAs = (fd: number, path: string): boolean => {
  const other = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW)
  try {
    if (fstatSync(fd).size !== fstatSync(other).size) return false
    const a = Buffer.alloc(chunk)
    const b = Buffer.alloc(chunk)
    for (let at = 0;; at += chunk) {
      const read = readSync(fd, a, 0, chunk, at)
      if (read !== readSync(other, b, 0, chunk, at) || !a.subarray(0, read).equals(b.subarray(0, read))) return false
      if (read === 0) return true
    }
  } finally {
    closeSync(other)
  }
}

/** A page being written: its text in pieces, then kept (or found unchanged), or abandoned. */
export interface PageFile {
  readonly write: (text: string) => void
  /** Rename the page over its target, unless the target is the export's (`ours`) and holds the same bytes; the temporary file goes either way. */
  readonly finish: (ours: boolean) => "written" | "unchanged"
  /** Remove the temporary file (after a failure). */
  readonly abandon: () => void
}

/**
 * Start the page at `path` (under `dir`): a new file beside it under a random name, opened
 * exclusively (never an existing file, never through a link), readable by its owner only.
 */
export const openPage = (dir: string, path: string): PageFile => {
  const target = join(dir, path)
  mkdirSync(dirname(target), { recursive: true })
  const partial = join(dirname(target), `.${randomBytes(9).toString("base64url")}.partial`)
  const fd = openSync(partial, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600)
  let pending: Array<string> = []
  let size = 0
  let open = true
  const flush = () => {
    const bytes = Buffer.from(pending.join(""))
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at)
    pending = []
    size = 0
  }
  const close = () => {
    if (open) closeSync(fd)
    open = false
  }
  return {
    write: (text) => {
      pending.push(text)
      size += text.length
      if (size >= chunk) flush()
    },
    finish: (ours) => {
      flush()
      const unchanged = ours && sameAs(fd, target)
      close()
      if (unchanged) {
        rmSync(partial)
        return "unchanged"
      }
      renameSync(partial, target)
      return "written"
    },
    abandon: () => {
      close()
      rmSync(partial, { force: true })
    }
  }
}

/** Remove the pages the export wrote (`ours`) that are not among `kept`; how many. */
export const removeStale = (dir: string, ours: ReadonlySet<string>, kept: ReadonlySet<string>): number => {
  const stale = [...ours].filter((path) => !kept.has(path))
  for (const path of stale) rmSync(join(dir, path))
  return stale.length
}
