/**
 * The page's connection to the server it came from, and the seats it holds. A seat's reconnection token is kept
 * in the tab's session storage, so a reload (or a dropped connection) takes the same seat back; another tab is
 * another person.
 */
import { CardhallClient, type CardhallError, type RoomSession } from "../../client-sdk/index";

/** The server that served this page, over WebSocket. */
export function serverUrl(): string {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}`;
}

let client: CardhallClient | undefined;
export function cardhall(): CardhallClient {
  return (client ??= new CardhallClient(serverUrl()));
}

const TOKEN_KEY = (roomId: string) => `cardhall.seat.${roomId}`;

/** The token of this tab's seat in `roomId`, if it holds one. */
export function seatToken(roomId: string): string | undefined {
  return sessionStorage.getItem(TOKEN_KEY(roomId)) ?? undefined;
}

/** Keeps the session's token now and after each reconnection (the token changes with every connection). */
export function keepSeat(session: RoomSession<unknown, object>): void {
  const save = () => sessionStorage.setItem(TOKEN_KEY(session.roomId), session.reconnectionToken);
  save();
  session.room.onReconnect(save);
}

export function forgetSeat(roomId: string): void {
  sessionStorage.removeItem(TOKEN_KEY(roomId));
}

/**
 * Takes this tab's seat back if it has a token for the room, else `fresh()`. A token the room no longer honours
 * (the seat's window passed, the room closed) is forgotten and `fresh()` is tried.
 */
export async function rejoinOr<S extends RoomSession<unknown, object>>(
  roomId: string | undefined,
  reconnect: (token: string) => Promise<S>,
  fresh: () => Promise<S>,
): Promise<S> {
  const token = roomId === undefined ? undefined : seatToken(roomId);
  let session: S;
  if (token !== undefined) {
    try {
      session = await reconnect(token);
    } catch {
      forgetSeat(roomId!);
      session = await fresh();
    }
  } else {
    session = await fresh();
  }
  keepSeat(session);
  return session;
}

/**
 * A refusal or failure in words, for people: the room's sentence, never its protocol code (the code is for
 * programs; the console keeps nothing of it either).
 */
export function inWords(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return sentence(text);
}

/** How a table's session ended, in words for the person at it. */
export function endedInWords(ended: CardhallError | undefined): string {
  switch (ended?.code) {
    case "TAKEN_OVER":
      return "This seat is now played from another tab or window, so this page no longer plays it.";
    case "SHUT_DOWN":
      return "The server closed the table.";
    case "LEFT":
      return "You left the table.";
    default:
      return "The connection to the table was lost.";
  }
}

function sentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === "") return "Something went wrong.";
  const capital = trimmed[0].toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** Numbers and words from the page's query string, for the options a room is created with (tests set paces). */
export function queryOptions(allowed: readonly string[]): Record<string, string | number | boolean> {
  const options: Record<string, string | number | boolean> = {};
  const query = new URLSearchParams(location.search);
  for (const name of allowed) {
    const value = query.get(name);
    if (value === null) continue;
    options[name] = value === "true" ? true : value === "false" ? false : /^-?\d+$/.test(value) ? Number(value) : value;
  }
  return options;
}
