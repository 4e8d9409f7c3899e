/**
 * The page shell every page shares, and the response that carries it: a strict
 * Content-Security-Policy (no inline script or style, nothing from elsewhere; no script at all but
 * on the compose page, whose one script is a file of this site), no caching of
 * anyone's notes, no framing.
 */
import { HttpServerResponse } from "@effect/platform"
import { type Html, html } from "./Html.js"

/** Every page's security headers: no script at all. */
export const pageHeaders = {
  "content-security-policy":
    "default-src 'none'; style-src 'self'; img-src 'self'; media-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store"
}

/** Where the page is, for the navigation's current link. */
export type Section = "people" | "own" | "compose" | "ask" | "reminders" | "questions" | "search" | "replays" | "reads" | "none"

export interface Shell {
  readonly title: string
  readonly section: Section
  /** The signed-in page's CSRF token (its sign-out form); none on the sign-in page. */
  readonly csrf: string | null
  /** The operator's pages add the replay reports to the navigation; a user's, what the operator read of theirs. */
  readonly operator?: boolean
  /** Why what is sent is not being filed, when it is not (`Banner.ts`). */
  readonly banner?: string | null
  /** A script of this site the page enhances itself with (the compose page's live replies); none by default. */
  readonly script?: string
}

const link = (href: string, label: string, current: boolean) =>
  html`<a href="${href}"${current ? html` aria-current="page"` : null}>${label}</a>`

/** A whole page. */
export const page = (shell: Shell, main: Html): Html =>
  html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${shell.title} · Verbatim</title>
<link rel="stylesheet" href="/assets/app.css">
${shell.script === undefined ? null : html`<script src="${shell.script}" defer></script>`}
</head>
<body>
<header class="bar">
<a class="brand" href="/">Verbatim</a>
${
    shell.csrf === null ? null : html`<nav aria-label="Main">${link("/", "People", shell.section === "people")}${link("/own", "Own notes", shell.section === "own")}${
      link("/compose", "Capture", shell.section === "compose")
    }${link("/ask", "Ask", shell.section === "ask")}${link("/reminders", "Reminders", shell.section === "reminders")}${
      link("/questions", "Questions", shell.section === "questions")
    }${link("/search", "Search", shell.section === "search")}${
      shell.operator === true ? link("/replays", "Replays", shell.section === "replays") : link("/reads", "Operator reads", shell.section === "reads")
    }</nav>
<form method="post" action="/signout" class="signout"><input type="hidden" name="csrf" value="${shell.csrf}"><button type="submit">Sign out</button><button type="submit" formaction="/signout/everywhere" class="quiet">Sign out everywhere</button></form>`
  }
</header>
<main id="main">
${shell.banner === undefined || shell.banner === null ? null : html`<p role="status" class="banner">${shell.banner}</p>`}
${main}
</main>
</body>
</html>
`

/** The headers of a page that loads its `Shell.script`: that file of this site, and requests to this site, and nothing more. */
const scriptedHeaders = {
  ...pageHeaders,
  "content-security-policy":
    "default-src 'none'; style-src 'self'; img-src 'self'; media-src 'self'; script-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
}

/** A page as a response; `scripted` for the one page that loads a script of its own. */
export const respond = (body: Html, status = 200, scripted = false) =>
  HttpServerResponse.text(body.value, { status, contentType: "text/html; charset=utf-8", headers: scripted ? scriptedHeaders : pageHeaders })
