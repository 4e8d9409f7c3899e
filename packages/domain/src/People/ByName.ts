/**
 * A person chosen by the name a user typed, as the move and merge forms take it for someone not in
 * their list: the one whose name is the same, case and spaces aside; failing that, the one whose
 * name is the same with accents aside too (`zoe` finds Zoë). One person so named is the choice;
 * none, or several, is said back rather than guessed.
 */
import { fold } from "../Fold.js"

/** What a typed name finds among a user's people. */
export type NameFound<Id> =
  | { readonly _tag: "One"; readonly id: Id; readonly name: string }
  | { readonly _tag: "None" }
  | { readonly _tag: "Several"; readonly count: number }

/** A name as names compare: lower-cased (and with `folded`, its accents dropped), its runs of white space one space, trimmed. */
const comparable = (name: string, folded: boolean) => (folded ? fold(name) : name.toLowerCase()).replace(/\s+/gu, " ").trim()

/** The one of `people` named `typed`; none for an empty name. */
export const personByName = <Id>(people: ReadonlyArray<{ readonly id: Id; readonly name: string }>, typed: string): NameFound<Id> => {
  const named = (folded: boolean) => {
    const wanted = comparable(typed, folded)
    return people.filter((p) => comparable(p.name, folded) === wanted)
  }
  if (comparable(typed, true) === "") return { _tag: "None" }
  const exact = named(false)
  const found = exact.length === 1 ? exact : named(true)
  if (found.length === 1) return { _tag: "One", id: found[0]!.id, name: found[0]!.name }
  return found.length === 0 ? { _tag: "None" } : { _tag: "Several", count: found.length }
}
