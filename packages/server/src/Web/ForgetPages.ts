/**
 * Forgetting on the pages: the way to it from a note, a person and each message of a session; the
 * confirmation that says what will be gone before anything is (what a forgetting would take, from
 * `Scrub.scopeOf`, with the text being forgotten when the viewer reads it); and the page a note
 * forgotten leaves. The confirmation posts with the page's CSRF token and works without scripts.
 */
import { DateTime } from "effect"
import { type Html, html } from "./Html.js"
import { dayOf, timeAt } from "./Time.js"

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** The part of every confirmation no forgetting changes. */
export const forever = "It cannot be undone. Backups taken before keep them."

/** "the words of 2 messages in 1 conversation" */
export const wordsOf = (messages: number, conversations: number) =>
  `the words of ${counted(messages, "message", "messages")} in ${counted(conversations, "conversation", "conversations")}`

/** "a", "a and b", "a, b and c" */
export const listed = (items: ReadonlyArray<string>) =>
  items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`

/** What a confirmation page says and shows, and where its form posts. */
export interface Confirmation {
  /** The question it asks: "Forget Ana?" */
  readonly question: string
  /** What will be gone, in a sentence or two, ending with `forever`. */
  readonly says: string
  /** The text being forgotten, as the viewer is shown it, under its heading; null when it is not shown to them. */
  readonly shown: { readonly heading: string; readonly text: Html } | null
  /** Why the text is not shown, when it is not. */
  readonly withheld: string | null
  readonly action: string
  readonly button: string
  /** Where "Keep it" leads. */
  readonly back: string
  readonly csrf: string
}

/** A confirmation: what will be gone, the text going when it is shown, one button that forgets and one link that keeps. */
export const confirmationPage = (c: Confirmation): Html =>
  html`<h1>${c.question}</h1>
<p data-forgetting>${c.says}</p>
${c.shown === null ? null : html`<h2>${c.shown.heading}</h2>
${c.shown.text}`}
${c.withheld === null ? null : html`<p class="notice" data-withheld>Not shown to the operator: ${c.withheld}</p>`}
<form method="post" action="${c.action}" class="curate forget" data-form="forget"><input type="hidden" name="csrf" value="${c.csrf}">
<button type="submit">${c.button}</button>
<a href="${c.back}">No, keep it</a>
</form>`

/** The text a confirmation shows going. */
export const going = (heading: string, text: string) => ({ heading, text: html`<div class="body" data-forgotten>${text}</div>` })

/** A person's names for their confirmation: the one they go by, the ones they had, and the people merged into them. */
export interface Names {
  readonly name: string
  readonly former: ReadonlyArray<string>
  readonly mergedIn: ReadonlyArray<{ readonly name: string; readonly former: ReadonlyArray<string> }>
}

/** "also Ana Souza, an earlier name; Annie, merged into Ana Lima", or nothing when they had no other. */
export const otherNames = (names: Names): string => {
  const others = [
    ...names.former.map((n) => `${n}, an earlier name`),
    ...names.mergedIn.map((p) => `${p.name}, merged into ${names.name}${p.former.length === 0 ? "" : ` (earlier ${p.former.join(", ")})`}`)
  ]
  return others.length === 0 ? "" : ` (also ${others.join("; ")})`
}

/** "4 notes, 1 of them discarded" */
export const notesCounted = (live: number, discarded: number) =>
  `${counted(live + discarded, "note", "notes")}${discarded === 0 ? "" : `, ${discarded} of them discarded`}`

/** Where a message stands, as its confirmation says what forgetting it does there. */
export type Standing =
  | { readonly _tag: "InNote"; readonly about: string | null; readonly discarded: boolean; readonly others: number }
  | { readonly _tag: "InQuestion" }
  | { readonly _tag: "Elsewhere" }

/** What forgetting a message does beyond its own words. */
export const standingSays = (standing: Standing): string => {
  switch (standing._tag) {
    case "InNote": {
      const note = `the ${standing.discarded ? "discarded " : ""}note${standing.about === null ? "" : ` about ${standing.about}`} that holds it`
      return standing.others === 0
        ? `, and ${note}, made of it alone, goes with it`
        : `, and from ${note}, which keeps its other ${standing.others === 1 ? "message" : `${standing.others} messages`}`
    }
    case "InQuestion":
      return ", and from the question that asks about it"
    case "Elsewhere":
      return ""
  }
}

/** A note's way to its forgetting, below its other forms. */
export const forgetNoteLink = (noteId: string): Html =>
  html`<p class="curate forget" data-forget><a href="/notes/${noteId}/forget">Forget this note</a>
<span class="muted">Unlike discarding, forgetting erases its words for good, everywhere.</span></p>`

/** The person page's last section: the way to forgetting them. */
export const forgetPersonSection = (personId: string, name: string): Html =>
  html`<section data-forget>
<h2>Forget ${name}</h2>
<p class="muted">Erase the words of every note filed under ${name}, and ${name}'s names, for good.</p>
<p><a href="/people/${personId}/forget">Forget ${name}&hellip;</a></p>
</section>`

/** A message's way to its forgetting, on its session's page. */
export const forgetMessageLink = (messageId: string): Html =>
  html` <a class="quiet" href="/messages/${encodeURIComponent(messageId)}/forget" data-forget>Forget this message</a>`

/** What a forgotten note or person leaves at its address, the time read in `zone`; `yours` when the viewer asked for it. */
export const forgottenPage = (kind: "note" | "person", at: DateTime.Utc, yours: boolean, zone: string): Html =>
  html`<h1>This ${kind} was forgotten</h1>
<p data-forgotten-at>${kind === "note" ? "It was" : "They were"} forgotten on ${timeAt(at, zone)}${yours ? " at your request" : ""}: ${
    kind === "note" ? "its words are" : "their names and the words of every note filed under them are"
  } gone from every page, the search and the store. Backups taken before keep them.</p>
<p><a href="/">Go to ${yours ? "your notes" : "the people"}</a></p>`

/** A message already forgotten, asked to be forgotten again. */
export const alreadyErasedPage = (erasedAt: string, sessionId: string, zone: string): Html =>
  html`<h1>Already forgotten</h1>
<p>This message was erased on ${dayOf(DateTime.unsafeMake(erasedAt), zone)} at your request.</p>
<p><a href="/sessions/${sessionId}">Go to its conversation</a></p>`
