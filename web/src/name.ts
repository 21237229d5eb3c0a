/**
 * The name a person plays under: typed once into the lobby's "Your name" box and kept in the browser's local
 * storage, so every table and every tab of this browser uses it. Sent as the join's `name`; rooms cap names at 40.
 * A person logged in plays under their account's name instead (the server seats the account under it whatever the
 * join says; the page says the same).
 */
const NAME_KEY = "cardhall.name";
export const NAME_MAX_LENGTH = 40;

/** The account this page is logged in as (web/src/account.ts keeps it), or null. */
let account: string | null = null;

export function setAccountName(name: string | null): void {
  account = name;
}

export function accountName(): string | null {
  return account;
}

/** The person's chosen name, or "" when they have not chosen one. */
export function chosenName(): string {
  try {
    return (localStorage.getItem(NAME_KEY) ?? "").trim().slice(0, NAME_MAX_LENGTH);
  } catch {
    return ""; // storage refused (a private window's policy): play unnamed
  }
}

/** Keeps the name for later visits; an empty name forgets it. */
export function chooseName(name: string): void {
  const trimmed = name.trim().slice(0, NAME_MAX_LENGTH);
  try {
    if (trimmed) localStorage.setItem(NAME_KEY, trimmed);
    else localStorage.removeItem(NAME_KEY);
  } catch {
    // storage refused: the name holds for this page only
  }
}

/** The name to join a table with: the account's, else the chosen one, else `fallback` (a word the table picks, e.g. "Guest"). */
export function joinName(fallback = "Guest"): string {
  return account ?? (chosenName() || fallback);
}
