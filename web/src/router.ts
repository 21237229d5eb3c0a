/**
 * The page's routes: the lobby at `/`, a table to watch at `/watch/<roomId>`, a game to play at `/play/<game>`
 * (`?room=<id>` once it exists: the link a friend opens, and what a reload rejoins), a finished game's replay at
 * `/replay/<id>`, a game's rules at `/rules/<game>`, a player's page at `/players/<name>` (the name
 * encodeURIComponent'd), the account's page at `/account` and a tournament's standings and games at
 * `/tournaments/<id>`. The server answers every one of these paths with the page.
 */
export type Route =
  | { page: "lobby" }
  | { page: "watch"; roomId: string }
  | { page: "play"; game: string; roomId?: string }
  | { page: "replay"; id: string }
  | { page: "rules"; game: string }
  | { page: "player"; name: string }
  | { page: "account" }
  | { page: "tournament"; id: string }
  | { page: "missing"; path: string };

export function routeOf(location: Location): Route {
  const parts = pathParts(location.pathname);
  if (parts === null) return { page: "missing", path: location.pathname };
  if (parts.length === 0) return { page: "lobby" };
  if (parts[0] === "watch" && parts.length === 2) return { page: "watch", roomId: parts[1] };
  if (parts[0] === "play" && parts.length === 2)
    return { page: "play", game: parts[1], roomId: new URLSearchParams(location.search).get("room") ?? undefined };
  if (parts[0] === "replay" && parts.length === 2) return { page: "replay", id: parts[1] };
  if (parts[0] === "rules" && parts.length === 2) return { page: "rules", game: parts[1] };
  if (parts[0] === "players" && parts.length === 2) return { page: "player", name: parts[1] };
  if (parts[0] === "account" && parts.length === 1) return { page: "account" };
  if (parts[0] === "tournaments" && parts.length === 2) return { page: "tournament", id: parts[1] };
  return { page: "missing", path: location.pathname };
}

/** A path's parts, decoded; null for a path no link of the page makes (a `%` not followed by two hex digits). */
function pathParts(pathname: string): string[] | null {
  try {
    return pathname.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return null;
  }
}

/** A player's page's address. */
export function playerPath(name: string): string {
  return `/players/${encodeURIComponent(name)}`;
}

/** Goes to a page of this site without reloading it. */
export function navigate(path: string): void {
  history.pushState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

/** Records where the page is now (e.g. the room a /play page created) without a new history entry. */
export function replaceLocation(path: string): void {
  history.replaceState(null, "", path);
}
