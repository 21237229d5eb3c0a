/**
 * The names identities are registered under, and when two names are the same name.
 *
 * The rule: a registered name is 2 to 24 characters of ASCII letters, digits, spaces, `-`, `_` and `.`, with at
 * least one letter, no space at either end and no two separators in a row. Keeping to ASCII rules out the
 * look-alikes other scripts bring (Cyrillic "а" for Latin "a", full-width letters, invisible joiners) without a
 * confusables table to keep current. Two names are the same when their keys are: the key folds case, reads the
 * digits that pass for letters as those letters (0 as o, 1 and i as l, 5 as s) and drops the separators, so
 * "Deep Blue", "deep-blue", "DEEPBLUE" and "Deep_B1ue" are one name and only one of them can be registered.
 */
export const NAME_MIN = 2;
export const NAME_MAX = 24;
const ALLOWED = /^[A-Za-z0-9](?:[A-Za-z0-9]|[ ._-](?=[A-Za-z0-9]))*$/;
const LOOK_ALIKES: Record<string, string> = { "0": "o", "1": "l", i: "l", "5": "s" };
const LOOK_ALIKE = /[015i]/g;
/** What a key drops: white space (every kind: no name may hold it, but a key is defined for any string) and the separators. */
const SEPARATORS = /[\s._-]/g;

/** Why `name` cannot be registered, or null when it can. */
export function nameProblem(name: string): string | null {
  if (name.length < NAME_MIN || name.length > NAME_MAX) return `a name has ${NAME_MIN} to ${NAME_MAX} characters`;
  if (!ALLOWED.test(name))
    return "a name uses ASCII letters, digits, and single spaces, dots, dashes or underscores between them";
  if (!/[A-Za-z]/.test(name)) return "a name has at least one letter";
  return null;
}

/** The name's key: equal keys are the same name (see the rule above). Defined for any string, registrable or not. */
export function nameKey(name: string): string {
  return name
    .normalize("NFKC")
    .toLowerCase()
    .replace(SEPARATORS, "")
    .replace(LOOK_ALIKE, (character) => LOOK_ALIKES[character]!);
}
