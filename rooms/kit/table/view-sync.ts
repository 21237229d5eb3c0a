/**
 * One truth per viewer (docs/architecture.md): every client's decoded state equals the table's state view for its
 * viewer. The views are written into the schema once a patch, just before it is encoded: the public fields from
 * the spectator's view, then the hidden fields of each seat a person holds from that seat's own view. Sampled
 * clients are also sent the digest of the view they must hold (STATE_CHECK_EVERY), to check it themselves.
 */
import { ClientState, type Client } from "@colyseus/core";
import type { Schema } from "@colyseus/schema";
import { SPECTATOR, type Viewer } from "../engine";
import { STATE_CHECK_MESSAGE, type StateCheck } from "../protocol";
import type { SeatRoster } from "../seats";
import { writeView } from "../state-writer";
import { mergeViews, viewDigest, type Plain } from "../views";

/** One client in this many gets state checks (rooms/kit/protocol.ts, STATE_CHECK_MESSAGE); 0: none. */
let stateCheckEvery = 0;

/** Sets how many clients get state checks: one in `every` (the server's STATE_CHECK_EVERY; 0 turns them off). */
export function checkStatesOfOneClientIn(every: number): void {
  stateCheckEvery = every;
}

/** Whether a session is one of the sampled: a stable choice by its id, so that a client keeps it across reconnections. */
function sampledForStateChecks(sessionId: string): boolean {
  if (stateCheckEvery <= 0) return false;
  let sum = 0;
  for (let index = 0; index < sessionId.length; index++) sum = (sum * 31 + sessionId.charCodeAt(index)) >>> 0;
  return sum % stateCheckEvery === 0;
}

/** The table as its views are made from it. */
export interface ViewedTable {
  readonly state: Schema;
  readonly roster: SeatRoster;
  /** The game's position as `viewer` sees it: the engine's view of the match, or the view before one. */
  positionView(viewer: Viewer): Plain;
  /** What the table itself shows, the same for every viewer, with the deals' seal. */
  tableFields(): Plain;
  /** The schema object whose @view fields the seat's person alone sees, if any. */
  seatView(seat: number): Schema | undefined;
}

export class ViewSync<View> {
  /** Whether the views changed since they were last written into the schema. */
  private changed = true;
  /** The digest each sampled connection was last sent: made at the first check, since checks are off unless asked for. */
  private checkedDigests: WeakMap<Client, string> | undefined;

  constructor(private readonly table: ViewedTable) {}

  /** The state view `viewer` must hold (docs/protocol.md): the position with the table's own fields laid over it. */
  stateView(viewer: Viewer): View {
    return mergeViews(this.table.positionView(viewer), this.table.tableFields()) as unknown as View;
  }

  /**
   * The view changed (an action, a seat, the clock): the schema shows it with the next patch. Written once a patch,
   * never once an action: a list changed twice between two patches is not always decoded right by
   * @colyseus/schema 5.0.34, and a burst of bot actions costs one write instead of one per action.
   */
  showChanges(): void {
    this.changed = true;
  }

  /** Writes what changed into the schema (Colyseus's hook before every patch calls it). */
  write(): void {
    if (!this.changed) return;
    this.changed = false;
    const { state, roster } = this.table;
    writeView(state, this.stateView(SPECTATOR) as Plain, "public");
    roster.seats.forEach((held, seat) => {
      if (held.holder === "person" && this.table.seatView(seat) !== undefined)
        writeView(state, this.table.positionView(seat), "hidden");
    });
  }

  /** After every patch: the state checks of the sampled clients (off unless the server turns them on). */
  checkAfterPatch(clients: Iterable<Client>, viewerOf: (sessionId: string) => Viewer): void {
    if (stateCheckEvery > 0) for (const client of clients) this.checkStateOf(client, viewerOf);
  }

  /**
   * A sampled client whose view changed since its last check (or that has just joined, its full state sent) is sent
   * the digest of the view it must hold now. A client still joining is not: the state it will be sent is not made yet.
   */
  checkStateOf(client: Client, viewerOf: (sessionId: string) => Viewer): void {
    if (stateCheckEvery === 0 || client.state !== ClientState.JOINED || !sampledForStateChecks(client.sessionId))
      return;
    const digest = viewDigest(this.stateView(viewerOf(client.sessionId)) as Plain);
    const checked = (this.checkedDigests ??= new WeakMap());
    if (checked.get(client) === digest) return;
    checked.set(client, digest);
    client.send(STATE_CHECK_MESSAGE, { digest } satisfies StateCheck);
  }
}
