/**
 * A question asked of a user's notes: how long it may be, and the words of it worth searching for.
 * Pure: the search itself is the read side's (`Queries/AskCandidates.ts`).
 */

/** The longest question taken, in characters: a question is a sentence or two, not a document. */
export const maxQuestionLength = 2_000

/** Why a question is not taken, if it is not. */
export const questionProblem = (question: string): "empty" | "too-long" | null =>
  question.trim() === "" ? "empty" : question.length > maxQuestionLength ? "too-long" : null

/**
 * Words that ask rather than name, in the languages people write to the bot in most (English,
 * Portuguese, Spanish, French, German, Italian): searching for them finds every message.
 */
const askingWords = new Set(
  (
    "what whats who whom whose which when where why how do does did done i me my mine we us our you your he him his she her hers it its " +
      "they them their is are was were be been being am the a an of to in on at for with from by and or not no any anything something " +
      "all about know knows knew say says said tell told there that this these those have has had can could would should will shall " +
      "o os as que quem qual quais quando onde como porque eu me meu minha sei sabe sobre de do da dos das em no na nos nas um uma e é foi " +
      "ele ela eles elas disse dizer falou tem tinha el la los las qué quién cuál cuándo dónde cómo yo mi sé del y es fue dijo " +
      "le les du des une et est qui quoi quand où je mon ma sais sur il elle ils dit " +
      "was wer wie wo wann warum ich mein weiß über der die das den dem und ist hat sagte " +
      "che chi cosa come dove quando io mio so su di il lo gli è ha detto"
  ).split(" ")
)

/** The most words a search is made of: the rarest ones say most, and a long question should not cost more. */
export const maxTerms = 8

/**
 * The words of a question to search for: letters and digits as the search index splits them
 * (composed, case folded, accents kept), without the words that only ask, each once, the longest first
 * (longer words are rarer), at most `maxTerms`.
 */
export const questionTerms = (question: string): ReadonlyArray<string> => {
  const words = question.normalize("NFC").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  const unique = [...new Set(words)].filter((word) => [...word].length >= 2 && !askingWords.has(word))
  return unique.map((word, index) => ({ word, index }))
    .sort((a, b) => b.word.length - a.word.length || a.index - b.index)
    .slice(0, maxTerms)
    .map(({ word }) => word)
}
