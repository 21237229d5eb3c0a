/**
 * The lobby: the person's name (kept in the browser, sent as every table's join name; the account's when logged
 * in), each game's start buttons with its table options and rules, every live table (kept current by Colyseus's
 * LobbyRoom: the server pushes each room's listing as it changes), filtered by game, the finished games with who
 * played and how they ended, the leaderboards, linked to the player pages, and today's solo ladders' leaders (all
 * fetched again when a table ends or closes, and every little while the lobby is open).
 */
import "./lobby.css";
import type { CardhallClient, GameSummary, LadderStandings } from "../../client-sdk/index";
import { GAME_TITLES, GAMES, isGame, PAGE_GAMES, pageGame, type GameName } from "./games";
import { button, draw, h } from "./dom";
import { optionsForm } from "./lobby-options";
import { accountName, chooseName, chosenName, NAME_MAX_LENGTH } from "./name";
import { finishedItem } from "./finished";
import { leaderboards } from "./leaderboards";
import { navigate } from "./router";
import type { Teardown } from "./table";
import { LOBBY_ROOM } from "../../rooms/kit/protocol";

/** A room as the lobby room lists it (Colyseus's room cache). */
interface Listed {
  roomId: string;
  name: string;
  clients: number;
  maxClients: number;
  locked?: boolean;
  metadata?: Record<string, unknown> | null;
}

/** How many finished games the lobby shows, and how often it asks again while open (besides when a table ends). */
const FINISHED_SHOWN = 10;
const FINISHED_REFRESH_MS = 15_000;
/** A table's record is written a moment after its game ends: the lobby asks this long after. */
const RECORD_WRITE_MS = 1_000;

/** Each room's phases in words. */
const PHASE_WORDS: Record<string, string> = {
  waiting: "waiting for players",
  playing: "playing",
  over: "game over",
  declaring: "dealing: trumps may be declared",
  burying: "the dealer is burying 8 cards",
  roundOver: "between rounds",
  matchOver: "match over",
  dealing: "dealing",
  paused: "paused",
};
/** Phases in which a game has just ended: its record will follow. */
const ENDED_PHASES = new Set(["over", "roundOver", "matchOver"]);

export async function showLobby(client: CardhallClient, root: HTMLElement): Promise<Teardown> {
  document.title = "cardhall";
  const rooms = new Map<string, Listed>();
  let filter: GameName | "all" = "all";
  const filters = h("div", { class: "filters", role: "group", label: "Show tables of" });
  const list = h("ul", { class: "rooms", label: "Live tables" });
  const finished = h("ul", { class: "finished", label: "Finished games" });
  const finishedNote = h("p", { class: "finished-note" });
  const boards = h("div", { class: "leaderboards" });
  const boardsNote = h("p", { class: "finished-note" });
  const ladders = h("div", { class: "ladders" });
  root.append(
    nameBox(),
    h("h1", { text: "Start a game" }),
    h("div", { class: "game-starts" }, ...PAGE_GAMES.map((entry) => startGame(entry.game.name))),
    h("h2", { text: "Live tables" }),
    filters,
    list,
    h(
      "section",
      { class: "replays", label: "Finished games" },
      h("h2", { text: "Finished games" }),
      finishedNote,
      finished,
    ),
    h("section", { class: "leaders", label: "Leaderboards" }, h("h2", { text: "Leaderboards" }), boardsNote, boards),
    h("section", { class: "ladder-leaders", label: "Today's ladders" }, h("h2", { text: "Today's ladders" }), ladders),
  );

  const redraw = () => {
    draw(
      filters,
      ...(["all", ...GAMES] as const).map((game) => {
        const chosen = button(game === "all" ? "All games" : GAME_TITLES[game], () => ((filter = game), redraw()), {
          key: `filter:${game}`,
        });
        chosen.setAttribute("aria-pressed", String(filter === game));
        return chosen;
      }),
    );
    // A ladder table has its player alone (docs/arena.md, "Solo ladders"): nothing to watch or join.
    const shown = [...rooms.values()].filter(
      (room) => isGame(room.name) && room.metadata?.ladder !== true && (filter === "all" || room.name === filter),
    );
    draw(
      list,
      ...(shown.length === 0
        ? [h("li", { class: "empty", text: "No tables right now: start one." })]
        : shown.map(roomItem)),
    );
  };

  // The finished games: asked again soon after a table ends a game or closes, and every little while.
  let asking: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  const refresh = async () => {
    const mine = ++asked;
    const [words, leaders, ladderBoards] = await Promise.all([
      finishedGames(client),
      leaderboards(client),
      ladderLeaders(client),
    ]);
    if (mine !== asked) return; // a later answer is on its way
    boardsNote.textContent = leaders === null ? "Nobody is on a leaderboard yet." : "";
    draw(boards, ...(leaders ?? []));
    draw(ladders, ...ladderBoards.map(ladderList));
    if (typeof words === "string") return void ((finishedNote.textContent = words), finished.replaceChildren());
    finishedNote.textContent = words.length === 0 ? "No finished games yet." : "";
    draw(finished, ...words.map(finishedItem));
  };
  const refreshSoon = () => {
    clearTimeout(asking);
    asking = setTimeout(() => void refresh(), RECORD_WRITE_MS);
  };
  const every = setInterval(() => void refresh(), FINISHED_REFRESH_MS);

  const lobby = await client.colyseus.joinOrCreate(LOBBY_ROOM);
  lobby.onMessage("rooms", (all: Listed[]) => {
    rooms.clear();
    for (const room of all) rooms.set(room.roomId, room);
    redraw();
  });
  lobby.onMessage("+", ([roomId, room]: [string, Listed]) => {
    const before = rooms.get(roomId)?.metadata?.phase;
    const phase = room.metadata?.phase;
    if (phase !== before && typeof phase === "string" && ENDED_PHASES.has(phase)) refreshSoon();
    rooms.set(roomId, room);
    redraw();
  });
  lobby.onMessage("-", (roomId: string) => {
    rooms.delete(roomId);
    redraw();
    refreshSoon();
  });
  redraw();
  void refresh();
  return () => {
    clearTimeout(asking);
    clearInterval(every);
    void lobby.leave();
  };
}

/**
 * "Your name": kept in the browser's local storage as it is typed; every table joins with it. Logged in, the
 * account's name stands in its place ("Playing as Ann"), with a link to the account's page.
 */
function nameBox(): HTMLElement {
  const account = accountName();
  if (account !== null) {
    return h(
      "section",
      { class: "your-name" },
      h("span", { class: "playing-as" }, "Playing as ", h("strong", { text: account })),
      h("a", { href: "/account", text: "Your account", attrs: { "data-link": "" } }),
    );
  }
  const input = h("input", {
    type: "text",
    value: chosenName(),
    attrs: {
      id: "your-name",
      name: "name",
      maxlength: String(NAME_MAX_LENGTH),
      autocomplete: "nickname",
      placeholder: "Guest",
      spellcheck: "false",
    },
  });
  input.addEventListener("input", () => chooseName(input.value));
  return h(
    "section",
    { class: "your-name" },
    h("label", { text: "Your name", attrs: { for: "your-name" } }),
    input,
    h("span", { class: "name-note", text: "Shown to everyone at your tables." }),
    h("a", { href: "/account", text: "Log in or sign up", attrs: { "data-link": "" } }),
  );
}

/** A game's start buttons (one click each), its rules and its table options. */
function startGame(game: GameName): HTMLElement {
  const title = GAME_TITLES[game];
  const options = optionsForm(game, title);
  return h(
    "section",
    { class: "start-game", label: title, attrs: { "data-game": game } },
    h("h3", { text: title }),
    h(
      "div",
      { class: "start-buttons" },
      ...pageGame(game).starts.map((start) => button(start.text, () => navigate(options.withOptions(start.path)))),
      ratedStart(game),
      h("a", { href: `/rules/${game}`, text: "Rules", label: `Rules of ${title}`, attrs: { "data-link": "" } }),
    ),
    options.element,
  );
}

/** The game's rated queue, for a person logged in: the queue sets the table, so no table options go with it. */
function ratedStart(game: GameName): HTMLElement | null {
  const rated = pageGame(game).rated;
  return rated === undefined || accountName() === null ? null : button(rated.text, () => navigate(rated.path));
}

function roomItem(room: Listed): HTMLElement {
  const game = room.name as GameName;
  const meta = room.metadata ?? {};
  const open = openSeats(game, meta);
  const watching = Number(meta.spectators ?? 0);
  const facts = [
    playersOf(game, meta),
    PHASE_WORDS[String(meta.phase)] ?? "",
    scoreOf(game, meta),
    rulesOf(meta),
    open > 0 ? `${open} seat${open === 1 ? "" : "s"} open` : "",
    watching > 0 ? `${watching} watching` : "",
  ].filter(Boolean);
  return h(
    "li",
    { class: "room", attrs: { "data-room": room.roomId, "data-game": game } },
    h("span", { class: "room-game", text: GAME_TITLES[game] }),
    h("span", { class: "room-facts", text: facts.join(" · ") }),
    h("a", {
      href: `/watch/${room.roomId}`,
      text: "Watch",
      label: `Watch ${GAME_TITLES[game]} table ${room.roomId}`,
      attrs: { "data-link": "" },
    }),
    takesFriend(game, meta, open)
      ? h("a", { href: `/play/${game}?room=${room.roomId}`, text: "Take a seat", attrs: { "data-link": "" } })
      : null,
  );
}

/** A table's rules when it has a choice of them (Tractor's throws). */
function rulesOf(meta: Record<string, unknown>): string {
  if (meta.throws === "check-other-hands") return "checked throws";
  if (meta.throws === "always-accept") return "every throw stands";
  return "";
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
  if (typeof score === "string" && score) return score;
  return pageGame(game).progress?.(meta) ?? "";
}

function playersOf(game: GameName, meta: Record<string, unknown>): string {
  return pageGame(game).players?.(meta) ?? "";
}

/** The newest finished games, or why there are none to show. */
async function finishedGames(client: CardhallClient): Promise<readonly GameSummary[] | string> {
  try {
    return (await client.games({ limit: FINISHED_SHOWN })).games;
  } catch {
    return "This server keeps no records of finished games.";
  }
}

/** The games with a solo ladder, and how many of the period's leaders the lobby shows. */
const LADDER_GAMES = ["evensteven", "patience"] as const;
const LADDER_LEADERS_SHOWN = 5;

/** Today's standings of each ladder (none for a server without records or a ladder it cannot read now). */
async function ladderLeaders(client: CardhallClient): Promise<LadderStandings[]> {
  const read = await Promise.all(LADDER_GAMES.map((game) => client.ladder(game).catch(() => null)));
  return read.filter((standings): standings is LadderStandings => standings !== null);
}

/** One ladder's leaders in words: "1. Ann Bot (Ann's bot): 6 of 10 won". */
function ladderList(ladder: LadderStandings): HTMLElement {
  const title = isGame(ladder.game) ? GAME_TITLES[ladder.game] : ladder.game;
  const result = (points: number) =>
    ladder.game === "patience" ? `${points} of ${ladder.deals} came out` : `${points} of ${ladder.deals} won`;
  const leaders = ladder.standings.slice(0, LADDER_LEADERS_SHOWN).map((standing) =>
    h("li", {
      key: `ladder:${ladder.game}:${standing.name}`,
      text: `${standing.rank}. ${standing.name}${standing.owner === undefined ? "" : ` (${standing.owner}'s bot)`}: ${result(standing.points)}`,
    }),
  );
  return h(
    "div",
    { class: "ladder", key: `ladder:${ladder.game}`, attrs: { "data-game": ladder.game } },
    h("h3", { text: `${title}, ${ladder.period}` }),
    leaders.length === 0
      ? h("p", { class: "empty", text: "Nobody has played today's deals yet." })
      : h("ol", { class: "ladder-list", label: `${title} ladder` }, ...leaders),
  );
}
