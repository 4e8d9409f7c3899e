/** IntList: a list of integers reused as scratch space, whose storage survives clearing. */

/**
 * The list is `items[0, length)`; entries past `length` are stale. Clearing an array by setting
 * its length to 0 releases its storage, so the next push allocates again; clearing an IntList
 * only resets `length`.
 */
export interface IntList {
  readonly items: Array<number>
  length: number
}

/** An empty list. */
export const make = (): IntList => ({ items: [], length: 0 })

/** Empties the list, keeping its storage. */
export const clear = (list: IntList): void => {
  list.length = 0
}

/** Appends one integer. */
export const push = (list: IntList, value: number): void => {
  list.items[list.length++] = value
}
