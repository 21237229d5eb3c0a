/** The page: the router choosing the lobby, a table (one module per game), a replay, a game's rules, a player's page, the account's or a tournament. */
import "./style.css";
import { loadAccount } from "./account";
import { showAccount } from "./account-page";
import { CardhallError, waitBeforeAskingAgain } from "../../client-sdk/index";
import { cardhall, inWords } from "./connection";
import { h } from "./dom";
import { resetEndings } from "./ending";
import { mayLeave } from "./leaving";
import { showLobby } from "./lobby";
import { showPlayer } from "./players";
import { showReplay } from "./replay";
import { showRules } from "./rules";
import { showTournament } from "./tournament";
import { navigate, routeOf } from "./router";
import type { Teardown } from "./table";
import { GAME_TITLES, isGame, TABLES } from "./games";

const app = document.getElementById("app")!;
let teardown: Teardown | undefined;
/** Counts page changes, so a page that finishes opening after the person has moved on closes at once. */
let visit = 0;
/** The address now shown, so that a Back the person takes back (leaving a seat) restores it. */
let shownPath = "";
/** Set when the person already agreed to leave (a link they confirmed), so the page change does not ask twice. */
let leaveAgreed = false;

async function show(): Promise<void> {
  resetEndings();
  shownPath = location.pathname + location.search;
  teardown?.();
  teardown = undefined;
  const thisVisit = ++visit;
  const route = routeOf(location);
  const root = h("div", { class: `page page-${route.page}` });
  app.replaceChildren(root);
  try {
    const close = await open(route, root);
    if (thisVisit === visit) {
      teardown = close;
      // A table replaces its address once it has a room (?room=): a Back taken back restores that one.
      shownPath = location.pathname + location.search;
    } else close();
  } catch (error) {
    if (thisVisit !== visit) return;
    const waitMs = error instanceof CardhallError ? error.retryAfterMs : undefined;
    if (waitMs !== undefined) askAgainLater(root, inWords(error), waitBeforeAskingAgain(waitMs), thisVisit);
    else
      root.replaceChildren(
        h("p", { class: "notice", role: "alert", text: `This page could not open: ${inWords(error)}` }),
        backToLobby(),
      );
  }
}

function backToLobby(): HTMLElement {
  return h("a", { href: "/", text: "Back to the lobby", attrs: { "data-link": "" } });
}

/**
 * The server refused for a reason that passes (at capacity, a database away): the page says why, counts down the
 * wait the server asked for, and opens again, unless the person has gone elsewhere meanwhile.
 */
function askAgainLater(root: HTMLElement, reason: string, waitMs: number, thisVisit: number): void {
  const countdown = h("p", { class: "asking-again" });
  root.replaceChildren(
    h("p", { class: "notice passing", role: "status", text: `This page could not open yet. ${reason}` }),
    countdown,
    backToLobby(),
  );
  const openAt = Date.now() + waitMs;
  const tick = () => {
    if (thisVisit !== visit) return;
    const seconds = Math.ceil((openAt - Date.now()) / 1000);
    if (seconds <= 0) return void show();
    countdown.textContent = `This page asks again in ${seconds} ${seconds === 1 ? "second" : "seconds"}.`;
    setTimeout(tick, Math.min(1000, openAt - Date.now()));
  };
  tick();
}

/** Who this browser is logged in as, asked once when the page loads (the account page keeps it current after). */
const accountKnown = loadAccount();

async function open(route: ReturnType<typeof routeOf>, root: HTMLElement): Promise<Teardown> {
  const client = cardhall();
  await accountKnown;
  switch (route.page) {
    case "lobby":
      return showLobby(client, root);
    case "replay":
      return showReplay(client, route.id, root, TABLES);
    case "rules":
      if (!isGame(route.game)) throw new Error(`there is no game "${route.game}"`);
      return showRules(route.game, root);
    case "tournament":
      return showTournament(client, route.id, root);
    case "play":
      if (!isGame(route.game)) throw new Error(`there is no game "${route.game}"`);
      document.title = `${GAME_TITLES[route.game]} · cardhall`;
      return TABLES[route.game].play(client, route.roomId, root);
    case "watch": {
      const listing = (await client.listRooms()).find((room) => room.roomId === route.roomId);
      if (!listing || !isGame(listing.name)) throw new Error(`no live table has the id ${route.roomId}`);
      document.title = `Watching ${GAME_TITLES[listing.name]} · cardhall`;
      return TABLES[listing.name].watch(client, route.roomId, root);
    }
    case "player":
      return showPlayer(client, route.name, root);
    case "account":
      return showAccount(root);
    case "missing":
      throw new Error(`nothing lives at ${route.path}`);
  }
}

// Links inside the page change pages without reloading it (the rooms stay joined only on their own page).
document.addEventListener("click", (event) => {
  const link = (event.target as HTMLElement).closest<HTMLAnchorElement>("a[data-link]");
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || link.origin !== location.origin) return;
  event.preventDefault();
  if (!mayLeave()) return;
  leaveAgreed = true;
  navigate(link.pathname + link.search);
});
window.addEventListener("popstate", () => {
  // Back or Forward away from a seat mid-game asks first; staying puts the address back.
  const agreed = leaveAgreed;
  leaveAgreed = false;
  if (!agreed && location.pathname + location.search !== shownPath && !mayLeave()) {
    history.pushState(null, "", shownPath);
    return;
  }
  void show();
});
void show();
