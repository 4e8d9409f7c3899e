/** The Cloud API body for a reply: plain text, reply buttons (≤ 3) or a list (≤ 10 rows). Pure. */
import type { ReplyTemplate } from "@verbatim/domain/ReplyEvents"
import { cut } from "@verbatim/domain/ReplyText"

/** A choice offered to the user; `data` travels back verbatim as the button or row id. */
interface Choice {
  readonly label: string
  readonly data: string
}

const codePoints = (text: string): number => {
  let n = 0
  for (const _ of text) n++
  return n
}

/**
 * Cut `text` to at most `max` code points (Meta's unit) without splitting a grapheme, marking
 * the cut with an ellipsis. Text that fits is returned unchanged.
 */
export const fitLabel = (text: string, max: number): string => cut(text, max, codePoints)

const maxButtons = 3
const maxRows = 10

/**
 * A template body parameter as WhatsApp takes one: no line breaks or tabs, no more than four
 * spaces in a row (each run of white space holding one, and each run of five spaces or more,
 * becomes one space), at most 1,024 characters.
 */
export const templateParameter = (text: string): string => fitLabel(text.replace(/[ \t\r\n]*[\t\r\n][ \t\r\n]*| {5,}/g, " ").trim(), 1024)

/** The JSON body to POST to `/{phone_number_id}/messages`, or null when there are too many choices for one list. */
export const whatsAppMessage = (to: string, text: string, choices: ReadonlyArray<Choice>, template?: ReplyTemplate): unknown => {
  const base = { messaging_product: "whatsapp", recipient_type: "individual", to }
  if (template !== undefined) {
    const parameters = template.parameters.map((p) => ({ type: "text", text: templateParameter(p) }))
    return {
      ...base,
      type: "template",
      template: { name: template.name, language: { code: template.language }, components: parameters.length === 0 ? [] : [{ type: "body", parameters }] }
    }
  }
  if (choices.length === 0) return { ...base, type: "text", text: { preview_url: false, body: text } }
  if (choices.length <= maxButtons) {
    const buttons = choices.map((choice) => ({ type: "reply", reply: { id: choice.data, title: fitLabel(choice.label, 20) } }))
    return { ...base, type: "interactive", interactive: { type: "button", body: { text }, action: { buttons } } }
  }
  if (choices.length > maxRows) return null
  // A row title holds 24 characters; a longer label is shown whole in the description.
  const rows = choices.map((choice) => {
    const title = fitLabel(choice.label, 24)
    return { id: choice.data, title, ...(title === choice.label ? {} : { description: fitLabel(choice.label, 72) }) }
  })
  return {
    ...base,
    type: "interactive",
    interactive: { type: "list", body: { text }, action: { button: "Choose", sections: [{ title: "Choices", rows }] } }
  }
}
