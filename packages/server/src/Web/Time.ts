/** A moment on a page: read on the viewer's clock with the zone named, the instant itself in `datetime`. */
import { localDay, localTime } from "@verbatim/domain/ReadableTime"
import { DateTime } from "effect"
import { type Html, html } from "./Html.js"

/** `<time>` reading "6 December 2026, 14:05 (Europe/Lisbon)". */
export const timeAt = (at: DateTime.Utc, zone: string): Html => html`<time datetime="${DateTime.formatIso(at)}">${localTime(at, zone)}</time>`

/** `<time>` reading "6 December 2026", the day in `zone`. */
export const dayOf = (at: DateTime.Utc, zone: string): Html => html`<time datetime="${DateTime.formatIso(at)}">${localDay(at, zone)}</time>`
