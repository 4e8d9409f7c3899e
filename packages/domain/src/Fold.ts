/**
 * Text as search compares it: case and accents folded (`Joao` matches `João`, `reuniao` matches
 * `reunião`), the way the search index folds it on both backends. Only for comparing: the stored
 * and shown text is never folded.
 */

/** `text` decomposed, its combining accents (U+0300–U+036F) dropped, lower-cased. */
export const fold = (text: string): string => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLocaleLowerCase()

/** Whether `name` holds `query` (already trimmed), case and accents aside; an empty query matches everything. */
export const holdsFolded = (name: string, query: string): boolean => query === "" || fold(name).includes(fold(query))
