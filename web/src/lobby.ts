/**
 * The lobby: every live table, kept current by Colyseus's LobbyRoom (the server pushes each room's listing as it
 * changes: no polling), filtered by game, with buttons to start each kind of game and the finished games to replay.
 */
import type { CardhallClient, GameSummary } from "../../client-sdk/index";
import { GAME_TITLES, GAMES, isGame, PAGE_GAMES, pageGame, type GameName } from "./games";
import { button, draw, h } from "./dom";
import { navigate } from "./router";
import type { Teardown } from "./table";

/** A room as the lobby room lists it (Colyseus's room cache). */
interface Listed {
  roomId: string;
  name: string;
  clients: number;
  maxClients: number;
  locked?: boolean;
  metadata?: Record<string, unknown> | null;
}

export const LOBBY_ROOM = "lobby";

const STARTS: Array<{ text: string; path: string }> = PAGE_GAMES.flatMap((entry) => entry.starts);

export async function showLobby(client: CardhallClient, root: HTMLElement): Promise<Teardown> {
  document.title = "cardhall";
  const rooms = new Map<string, Listed>();
  let filter: GameName | "all" = "all";
  const filters = h("div", { class: "filters", role: "group", label: "Show tables of" });
  const list = h("ul", { class: "rooms", label: "Live tables" });
  const replays = h("section", { class: "replays" });
  root.append(
    h("h1", { text: "Live tables" }),
    h("nav", { class: "starts", label: "Start a game" }, ...STARTS.map((start) => button(start.text, () => navigate(start.path)))),
    filters,
    list,
    replays,
  );

  const redraw = () => {
    draw(filters, ...(["all", ...GAMES] as const).map((game) => {
      const chosen = button(game === "all" ? "All games" : GAME_TITLES[game], () => ((filter = game), redraw()), { key: `filter:${game}` });
      chosen.setAttribute("aria-pressed", String(filter === game));
      return chosen;
    }));
    const shown = [...rooms.values()].filter((room) => isGame(room.name) && (filter === "all" || room.name === filter));
    draw(list, ...(shown.length === 0 ? [h("li", { class: "empty", text: "No tables right now: start one." })] : shown.map(roomItem)));
  };

  const lobby = await client.colyseus.joinOrCreate(LOBBY_ROOM);
  lobby.onMessage("rooms", (all: Listed[]) => {
    rooms.clear();
    for (const room of all) rooms.set(room.roomId, room);
    redraw();
  });
  lobby.onMessage("+", ([roomId, room]: [string, Listed]) => (rooms.set(roomId, room), redraw()));
  lobby.onMessage("-", (roomId: string) => (rooms.delete(roomId), redraw()));
  redraw();
  void showFinished(client, replays);
  return () => void lobby.leave();
}

function roomItem(room: Listed): HTMLElement {
  const game = room.name as GameName;
  const meta = room.metadata ?? {};
  const open = openSeats(game, meta);
  const facts = [`${room.clients} connected`, open > 0 ? `${open} seat${open === 1 ? "" : "s"} open` : "no seat open", `phase: ${String(meta.phase ?? "?")}`, scoreOf(game, meta), playersOf(game, meta)].filter(Boolean);
  return h(
    "li",
    { class: "room", attrs: { "data-room": room.roomId, "data-game": game } },
    h("span", { class: "room-game", text: GAME_TITLES[game] }),
    h("span", { class: "room-facts", text: facts.join(" · ") }),
    h("a", { href: `/watch/${room.roomId}`, text: "Watch", label: `Watch ${GAME_TITLES[game]} table ${room.roomId}`, attrs: { "data-link": "" } }),
    takesFriend(game, meta, open) ? h("a", { href: `/play/${game}?room=${room.roomId}`, text: "Take a seat", attrs: { "data-link": "" } }) : null,
  );
}

/** A table a person may join from the lobby (a Fool table's open seat, a Tractor seat open or held by a bot). */
function takesFriend(game: GameName, meta: Record<string, unknown>, open: number): boolean {
  return pageGame(game).takesFriend?.(meta, open) ?? false;
}

function openSeats(game: GameName, meta: Record<string, unknown>): number {
  return pageGame(game).openSeats?.(meta) ?? 0;
}

function scoreOf(game: GameName, meta: Record<string, unknown>): string {
  const score = meta.score;
  if (typeof score === "string" && score) return `score: ${score}`;
  return pageGame(game).progress?.(meta) ?? "";
}

function playersOf(game: GameName, meta: Record<string, unknown>): string {
  return pageGame(game).players?.(meta) ?? "";
}

/** The newest finished games, each a link to its replay; nothing when the server keeps no records. */
async function showFinished(client: CardhallClient, region: HTMLElement): Promise<void> {
  let games: readonly GameSummary[];
  try {
    games = (await client.games({ limit: 10 })).games;
  } catch {
    return; // no records kept here
  }
  if (games.length === 0) return;
  draw(
    region,
    h("h2", { text: "Finished games" }),
    h("ul", {}, ...games.map((game) => h("li", {}, h("a", { href: `/replay/${game.id}`, text: `${isGame(game.game) ? GAME_TITLES[game.game] : game.game} · ${game.id}`, attrs: { "data-link": "" } })))),
  );
}
