/** What may follow the last name of a list: the end of the text, a line break or a closing bracket. */
export type ListEnd = '' | '\n' | ')';

/** What follows a name in a list: the comma before the next, or the list's end. */
export type NameFollower = ',' | ListEnd;

/**
 * Tokens of `' ' + names.join(', ') + end` added up name by name: `' a,'`, `' b,'`, `' c' + end`,
 * each counted once (`count(name, follower)` gives the tokens of `' ' + name + follower` and keeps them). This is the count of the whole text under an
 * o200k or cl100k pre-tokenizer, when what comes before ends with a colon: no chunk runs past the
 * comma after a name (a space follows, and only a chunk that starts with a space takes one), and
 * every name starts a chunk with the space before it. Undefined for a name with a space in it
 * (identifiers have none), so the caller counts the text whole.
 */
export function namesListTokens(names: readonly string[], end: ListEnd, count: (name: string, follower: NameFollower) => number): number | undefined {
  let total = 0;
  for (let position = 0; position < names.length; position++) {
    const name = names[position]!;
    if (name.length === 0 || /\s/.test(name)) return undefined;
    total += count(name, position === names.length - 1 ? end : ',');
  }
  return total;
}
