/** fast-check 4 arbitraries for sessions and adversarial plans, shared by every package's tests. */
import { MessageId } from "@verbatim/domain/Ids"
import type { MessageText } from "@verbatim/domain/Message"
import type { Plan, PlanNote, PlanPerson, PlanUnclear } from "@verbatim/domain/Plan"
import fc from "fast-check"

/** Pieces that break naive text handling: emoji, ZWJ sequences, flags, combining marks, CRLF, lone surrogates. */
const trickyFragments = [
  "remind me",
  "Remind me tomorrow.",
  "Alice",
  "call Bob",
  "👍",
  "👨‍👩‍👧",
  "\u200d",
  "🇫🇷",
  "e\u0301",
  "ß",
  "\r\n",
  "\n",
  "\n\n",
  " ",
  "  ",
  "\t",
  "\u00a0",
  "\ud83d",
  "\ude00",
  ".",
  "x"
]

const fragment: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...trickyFragments), weight: 6 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 6 }), weight: 2 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 3 }), weight: 1 }
)

/** One message's text: usually short and tricky, sometimes empty, now and then very long. */
export const messageText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.array(fragment, { maxLength: 12 }).map((parts) => parts.join("")), weight: 16 },
  { arbitrary: fc.constant(""), weight: 2 },
  { arbitrary: fc.array(fragment, { minLength: 200, maxLength: 400 }).map((parts) => parts.join("")), weight: 1 }
)

/** A session's messages, numbered 1, 2, 3 … with ids `m1`, `m2` … */
export const session = (options: { readonly maxMessages?: number } = {}): fc.Arbitrary<Array<MessageText>> =>
  fc.array(messageText, { maxLength: options.maxMessages ?? 8 }).map((texts) =>
    texts.map((text, i) => ({ id: MessageId.make(`m${i + 1}`), seq: i + 1, text }))
  )

/** A seq a plan might write: mostly the session's, sometimes unknown, non-integer, zero or negative. */
const planSeq = (count: number): fc.Arbitrary<number> =>
  fc.oneof(
    { arbitrary: fc.integer({ min: 1, max: Math.max(1, count) }), weight: 20 },
    { arbitrary: fc.constantFrom(0, -1, -0, count + 1, 1.5, 1e9), weight: 1 }
  )

/** Directives as a model might quote them: exact slices (even mid-pair), slices spanning two messages, near misses, empty. */
const directive = (messages: ReadonlyArray<MessageText>): fc.Arbitrary<string> => {
  const texts = messages.map((message) => message.text)
  const pick = (i: number): string => texts[i % texts.length] ?? ""
  const slice = fc.tuple(fc.nat(), fc.nat(), fc.nat({ max: 40 })).map(([i, from, length]) => {
    const text = pick(i)
    const start = text.length === 0 ? 0 : from % text.length
    return text.slice(start, start + length)
  })
  const spanning = fc.tuple(fc.nat(), fc.nat({ max: 8 }), fc.nat({ max: 8 }), fc.boolean()).map(([i, tail, head, blank]) =>
    pick(i).slice(-tail || pick(i).length) + (blank ? "\n\n" : "") + pick(i + 1).slice(0, head)
  )
  return fc.oneof(
    { arbitrary: slice, weight: texts.length === 0 ? 0 : 10 },
    { arbitrary: spanning, weight: texts.length === 0 ? 0 : 1 },
    { arbitrary: fc.constantFrom(...trickyFragments), weight: 2 },
    { arbitrary: fc.string({ maxLength: 4 }), weight: 1 },
    { arbitrary: fc.constant(""), weight: 1 }
  )
}

/** Two slices of one message that overlap each other (the second starts inside the first). */
const overlappingPair = (messages: ReadonlyArray<MessageText>): fc.Arbitrary<Array<string>> =>
  fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 2, max: 24 }), fc.integer({ min: 1, max: 24 })).map(
    ([i, from, length, extra]) => {
      const text = messages[i % messages.length]?.text ?? ""
      const start = text.length === 0 ? 0 : from % text.length
      const shift = 1 + (from % (length - 1))
      return [text.slice(start, start + length), text.slice(start + shift, start + length + extra)]
    }
  )

/** The plan's pool of directives; notes quote from it, so claimants often agree. */
const directivePool = (messages: ReadonlyArray<MessageText>): fc.Arbitrary<Array<string>> =>
  fc.array(
    fc.oneof(
      { arbitrary: directive(messages).map((text) => [text]), weight: 4 },
      { arbitrary: overlappingPair(messages), weight: messages.length === 0 ? 0 : 1 }
    ),
    { maxLength: 4 }
  ).map((groups) => groups.flat())

/** A few directives from the plan's pool (so claimants often agree), sometimes repeated. */
const directivesFrom = (pool: ReadonlyArray<string>): fc.Arbitrary<Array<string>> =>
  fc.tuple(fc.subarray([...pool]), fc.boolean()).map(([picked, twice]) => (twice ? [...picked, ...picked.slice(0, 1)] : picked))

const names = fc.constantFrom("Alice", " alice ", "ALICE", "Bob", "bob", "Carol", "")

/**
 * An adversarial plan for a session: unknown and duplicated seqs, notes overlapping within and
 * across owners, people named alike, directives that match, don't, overlap, repeat, span two
 * messages or are empty, and messages claimed both as notes and as bot messages.
 */
export const adversarialPlan = (messages: ReadonlyArray<MessageText>): fc.Arbitrary<Plan> =>
  directivePool(messages).chain((pool) => {
    const seqs = fc.array(planSeq(messages.length), { maxLength: 3 })
    const note: fc.Arbitrary<PlanNote> = seqs.chain((sourceItemSeqs) => {
      const own = messages.filter((message) => sourceItemSeqs.includes(message.seq))
      return fc.tuple(directivesFrom(pool), own.length === 0 ? fc.constant([]) : directivePool(own)).map(
        ([shared, quoted]) => ({ sourceItemSeqs, directives: [...shared, ...quoted] })
      )
    })
    const person: fc.Arbitrary<PlanPerson> = fc.record({
      contactId: fc.option(fc.constantFrom("c1", "c2"), { nil: null }),
      name: names,
      notes: fc.array(note, { maxLength: 3 })
    })
    const unclear: fc.Arbitrary<PlanUnclear> = fc.record({ sourceItemSeqs: seqs, candidates: fc.array(names, { maxLength: 3 }) })
    return fc.record({
      people: fc.array(person, { maxLength: 3 }),
      unattached: fc.array(note, { maxLength: 3 }),
      unclear: fc.array(unclear, { maxLength: 1 }),
      botMessages: fc.array(planSeq(messages.length), { maxLength: 3 })
    })
  })

/**
 * Directives for `assembleNote` over these messages: for each message, quotes of it (found,
 * overlapping, repeated, empty, spanning into the next message, near misses), plus a few
 * addressed to a message id the note does not have.
 */
export const noteDirectives = (
  messages: ReadonlyArray<MessageText>
): fc.Arbitrary<Array<{ readonly messageId: MessageId; readonly text: string }>> =>
  fc.tuple(
    fc.tuple(...messages.map((message, i) =>
      directivePool([message, ...messages.slice(i + 1)]).map((texts) => texts.map((text) => ({ messageId: message.id, text })))
    )),
    fc.array(directive(messages).map((text) => ({ messageId: MessageId.make("m0"), text })), { maxLength: 1 })
  ).map(([own, foreign]) => [...own.flat(), ...foreign])

/** A session together with an adversarial plan for it. */
export const sessionWithPlan = (
  options: { readonly maxMessages?: number } = {}
): fc.Arbitrary<{ readonly messages: Array<MessageText>; readonly plan: Plan }> =>
  session(options).chain((messages) => adversarialPlan(messages).map((plan) => ({ messages, plan })))

const permutation = <A>(items: ReadonlyArray<A>, inner: (item: A) => fc.Arbitrary<A> = fc.constant): fc.Arbitrary<Array<A>> =>
  fc.tuple(...items.map(inner)).chain((shuffledInside) =>
    fc.shuffledSubarray(shuffledInside, { minLength: shuffledInside.length, maxLength: shuffledInside.length })
  )

const shuffledNote = (note: PlanNote): fc.Arbitrary<PlanNote> =>
  fc.record({ sourceItemSeqs: permutation(note.sourceItemSeqs), directives: permutation(note.directives) })

/** The same plan with every list permuted: people, notes, seqs, directives, unclear entries, candidates, bot messages. */
export const shuffledPlan = (plan: Plan): fc.Arbitrary<Plan> =>
  fc.record({
    people: permutation(plan.people, (person) =>
      permutation(person.notes, shuffledNote).map((notes) => ({ ...person, notes }))),
    unattached: permutation(plan.unattached, shuffledNote),
    unclear: permutation(plan.unclear, (entry) =>
      fc.record({ sourceItemSeqs: permutation(entry.sourceItemSeqs), candidates: permutation(entry.candidates) })),
    botMessages: permutation(plan.botMessages)
  })
