/**
 * The matchmaking route (`POST /matchmake/<method>/<room name or id>`), served here in front of Colyseus's own so
 * that a client's request is bounded and its refusals are HTTP client errors:
 * - the body is read up to MATCHMAKE_BODY_LIMIT and refused with 413 past it (at once when its declared length
 *   is over), and one that is not a JSON object of options is refused with 400, each with a sentence;
 * - Colyseus answers a refused matchmaking with 520-524 (its own codes); here a client's error is a 4xx;
 * - the reservation carries the client's address (the peer's, or what a trusted proxy says the peer was: never a
 *   header a client can write itself), which the table kit bounds (rooms/kit/reservations.ts), and a join the
 *   table would refuse is refused with the table's reason before any seat is reserved.
 * The matchmaker itself (matchMaker.create, joinById, reconnect...) is Colyseus's, unchanged.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode, matchMaker, type AuthContext } from "@colyseus/core";
import { TableRoom } from "../rooms/kit/table";
import { pendingJoins } from "../rooms/kit/reservations";
import { log } from "../rooms/kit/log";
import { matchMakerMethod, type MatchmakeMethod } from "../rooms/kit/colyseus-internals";
import { GUEST, type LadderDeal, type SeatIdentity } from "../rooms/kit/record";
import { describeIssues, LOBBY_ROOM, MATCHMAKING_RETRY_AFTER_SECONDS } from "../rooms/kit/protocol";
import { isLadderGame, LADDER_GAMES, LADDERS } from "./arena/ladder";
import { LadderRefusal, type Ladders } from "./arena/ladders";
import { cookieValue, SESSION_COOKIE } from "./identity/session-cookie";
import type { IdentityStore } from "./identity/store";
import type { BusyGuard } from "./capacity/busy-guard";

/** A card table's join options are a few short fields; a Patience deck given in full is about 160 bytes. */
export const MATCHMAKE_BODY_LIMIT = 4 * 1024;

const MATCHMAKE_PATH = /^\/matchmake\/([A-Za-z]+)\/([A-Za-z0-9_-]+)$/;

/** How the server tells its clients apart and bounds each one's joins waiting for their connections. */
export interface ClientAddressRules {
  /** Reservations not yet taken that one address may hold (JOINS_PENDING_PER_ADDRESS); 0 for no bound. */
  pendingJoinsPerAddress: number;
  /**
   * Peers that are the deployment's own reverse proxies (TRUSTED_PROXIES): for a request from one of them, the
   * client is the nearest address its X-Forwarded-For names that is not itself a trusted proxy. Behind a proxy
   * without this, every client shares the proxy's address and its bound.
   */
  trustedProxies: readonly string[];
}

let trustedProxies: ReadonlySet<string> = new Set();

/** Sets the rules for the whole process (the pending joins are counted process-wide). */
export function setClientAddressRules(rules: ClientAddressRules): void {
  pendingJoins.limit = rules.pendingJoinsPerAddress === 0 ? Infinity : rules.pendingJoinsPerAddress;
  trustedProxies = new Set(rules.trustedProxies.map(canonicalAddress));
}

/** "::ffff:10.0.0.1", as a dual-stack socket reports an IPv4 peer, is "10.0.0.1". */
function canonicalAddress(address: string): string {
  const trimmed = address.trim();
  return trimmed.startsWith("::ffff:") && trimmed.includes(".") ? trimmed.slice("::ffff:".length) : trimmed;
}

/**
 * The client's address: the peer's, unless the peer is a trusted proxy; then the forwarding chain is read from
 * its right end (the entry the trusted proxy itself appended) leftwards, past the other trusted proxies. Entries a
 * client wrote lie to the left of the first untrusted one and are never reached.
 */
export function clientAddressOf(req: IncomingMessage): string | null {
  const peer = req.socket.remoteAddress;
  if (peer === undefined) return null;
  let address = canonicalAddress(peer);
  const header = req.headers["x-forwarded-for"];
  const chain = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map(canonicalAddress)
    .filter((entry) => entry !== "");
  while (trustedProxies.has(address) && chain.length > 0) address = chain.pop() as string;
  return address;
}

export function isMatchmakeRequest(req: IncomingMessage): boolean {
  return req.method === "POST" && (req.url ?? "").split("?", 1)[0].startsWith("/matchmake/");
}

/** A refusal with its HTTP status and a sentence for the client (503 for one that passes: see `send`). */
export class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Reads a body of at most `limit` bytes: a longer one is refused (413) as soon as it is known to be longer. */
export function readBoundedBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers["content-length"] ?? NaN);
  if (declared > limit) return Promise.reject(new HttpRefusal(413, `the request body is over ${limit} bytes`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    req.on("data", (chunk: Buffer) => {
      length += chunk.length;
      if (length > limit) {
        req.removeAllListeners("data");
        req.pause();
        reject(new HttpRefusal(413, `the request body is over ${limit} bytes`));
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => reject(new HttpRefusal(400, "the request body could not be read")));
  });
}

/** The options a matchmaking body carries: a JSON object (an empty body is no options). */
export function parseOptions(body: string): Record<string, unknown> {
  if (body.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new HttpRefusal(400, "the request body is not JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new HttpRefusal(400, "the request body must be a JSON object of options");
  return parsed as Record<string, unknown>;
}

/** Colyseus's matchmaking codes, as what they mean to the client that asked. */
const STATUS_OF_MATCHMAKE_CODE: Record<number, number> = {
  [ErrorCode.MATCHMAKE_NO_HANDLER]: 404, // no such method or room name
  [ErrorCode.MATCHMAKE_INVALID_CRITERIA]: 404, // no room to join
  [ErrorCode.MATCHMAKE_INVALID_ROOM_ID]: 404, // no such room (a locked one is 409, below)
  [ErrorCode.MATCHMAKE_EXPIRED]: 410, // a reconnection token that is no longer good
};

/**
 * The HTTP status for a matchmaking failure: a room's refusal (4xxx close codes, e.g. 4403 seat taken) as 4xx,
 * Colyseus's 52x as what they mean, a full room as 409; anything else is the server's fault (500).
 */
export function statusOf(error: unknown): number {
  if (error instanceof HttpRefusal) return error.status;
  if (isRoomFull(error)) return 409;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "number") return 500;
  if (code >= 400 && code < 500) return code;
  if (code >= 4400 && code < 4500) return code - 4000;
  if (code === ErrorCode.MATCHMAKE_INVALID_ROOM_ID && /is locked/.test(String((error as Error).message))) return 409;
  return STATUS_OF_MATCHMAKE_CODE[code] ?? 500;
}

/**
 * Colyseus's refused reservation (its SeatReservationError, which it does not export and which has no code):
 * the room is full, or the table refused the place asked for.
 */
function isRoomFull(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { code?: unknown }).code === undefined &&
    /is already full\.$/.test(error.message)
  );
}

function messageOf(error: unknown, status: number): string {
  if (error instanceof HttpRefusal) return error.message;
  if (isRoomFull(error))
    return "the room has no place for this join now (its seats are taken or promised to clients on their way)";
  if (status >= 500) return "the server could not do this matchmaking; try again";
  return error instanceof Error ? error.message : String(error);
}

/** Methods of Colyseus's matchmaker a client may call (the ones Colyseus's own route exposes). */
function matchmakeMethod(method: string): MatchmakeMethod {
  if (!matchMaker.controller.exposedMethods.includes(method))
    throw new HttpRefusal(404, `there is no matchmaking method "${method}"`);
  return matchMakerMethod(method);
}

let busyGuard: BusyGuard | null = null;

/**
 * Whether the busy guard refuses this join now. A new table (`create`; `joinOrCreate`, which may make one and is how
 * a rated queue is entered) is refused while no process of the cluster would take it; a spectator while the
 * table's own process is busy. A seat at a table already open is taken: its players are expected, and a table
 * refused its last seat would never start. The lobby is taken too: it is one room for everyone, and a person
 * refused a table must still see the hall.
 */
async function refusedAtCapacity(
  guard: BusyGuard,
  method: string,
  target: string,
  options: Record<string, unknown>,
): Promise<boolean> {
  if (target === LOBBY_ROOM) return false;
  if (method === "create" || method === "joinOrCreate") return guard.refusing;
  if (options.spectate !== true || (!guard.busy && !guard.anyOtherBusy)) return false;
  if (matchMaker.getLocalRoomById(target) !== undefined) return guard.busy;
  const [listing] = await matchMaker.query({ roomId: target });
  return listing !== undefined && guard.saidBusy(listing.processId);
}

/** The guard that refuses new tables and spectators while the main thread is saturated (server/capacity/busy-guard.ts); none by default. */
export function setBusyGuard(guard: BusyGuard | null): void {
  busyGuard = guard;
}

/** Says why the table would refuse this join, before a seat is reserved (only for a room in this process). */
async function refuseEarly(
  method: string,
  target: string,
  options: Record<string, unknown>,
  address: string | null,
): Promise<void> {
  if (method === "reconnect") {
    if (typeof options.reconnectionToken !== "string" || options.reconnectionToken === "")
      throw new HttpRefusal(400, "a reconnection needs its reconnectionToken");
    return;
  }
  if (busyGuard !== null && (await refusedAtCapacity(busyGuard, method, target, options))) {
    busyGuard.countRefusal();
    throw new HttpRefusal(
      503,
      "the server is at capacity and takes no new players for a moment, so that the games under way keep their pace",
    );
  }
  if (pendingJoins.isFull(address))
    throw new HttpRefusal(
      429,
      "too many joins from your address are waiting for their connections; connect them first",
    );
  if (method !== "joinById") return;
  const room = matchMaker.getLocalRoomById(target);
  const refusal = room instanceof TableRoom ? room.refusalFor(options, address) : null;
  if (refusal !== null) throw refusal;
}

/**
 * The auth context of a matchmaking request: the peer's address (not a forwarding header a client can set) and
 * the identity the request speaks for, which the table kit's onAuth hands to the seat (rooms/kit/table.ts).
 */
function contextOf(
  req: IncomingMessage,
  address: string | null,
  identity: SeatIdentity,
  ladderDeal: LadderDeal | undefined,
): AuthContext & { identity: SeatIdentity; ladderDeal?: LadderDeal } {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (typeof value === "string" && name !== "authorization" && name !== "cookie") headers.set(name, value);
  return {
    ip: address ?? undefined,
    headers,
    token: undefined,
    identity,
    ...(ladderDeal === undefined ? {} : { ladderDeal }),
  };
}

let ladders: Ladders | null = null;

/** The ladders whose deals a `{ ladder: true }` create gets (none when the server keeps no records). */
export function setLadders(given: Ladders | null): void {
  ladders = given;
}

/**
 * The deal a ladder table's creator plays (docs/arena.md, "Solo ladders"), given to its identity now, before the
 * table is made: so a join that asks for a ladder table with options it may not have, or as a guest, or with no
 * deal left, is refused with a sentence and nothing is given. Undefined for any other join.
 */
async function ladderDealFor(
  method: string,
  target: string,
  options: Record<string, unknown>,
  identity: SeatIdentity,
): Promise<LadderDeal | undefined> {
  if (options.ladder === undefined) return undefined;
  if (!isLadderGame(target)) throw new HttpRefusal(400, `only ${LADDER_GAMES.join(" and ")} have ladders`);
  if (method !== "create") throw new HttpRefusal(400, "a ladder table is made with create: nobody joins another's");
  const checked = LADDERS[target].options.safeParse(options);
  if (!checked.success) throw new HttpRefusal(400, `bad options for a ladder table: ${describeIssues(checked.error)}`);
  if (ladders === null) throw new HttpRefusal(404, "this server keeps no records (RECORDS=off), so it has no ladders");
  try {
    return await ladders.dealFor(target, identity);
  } catch (error) {
    if (error instanceof LadderRefusal) throw new HttpRefusal(error.status, error.message);
    throw new HttpRefusal(503, "the records database is not available, so no ladder deal can be given; try again");
  }
}

let identities: IdentityStore | null = null;

/** The accounts and bots joins are checked against (none when the server keeps no records: everyone is a guest). */
export function setIdentities(store: IdentityStore | null): void {
  identities = store;
}

/**
 * Whether a guest's name is registered. While the database is away a guest plays on (games go on through an
 * outage): the seat is a guest's, which no rating or identity counts, so the name taken for that game costs
 * its owner nothing.
 */
async function nameIsRegistered(store: IdentityStore, name: string): Promise<boolean> {
  try {
    return await store.isRegistered(name);
  } catch {
    return false;
  }
}

function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  return match?.[1];
}

/**
 * Who a join speaks for (docs/arena.md): the bot whose token the Authorization header carries (a token that is
 * unknown or revoked is refused), else the account the page's login cookie names, else a guest — who may not
 * take a seat under a registered name. A reconnection keeps the identity its seat had.
 */
async function joinerIdentity(
  req: IncomingMessage,
  method: string,
  options: Record<string, unknown>,
): Promise<SeatIdentity> {
  if (method === "reconnect") return GUEST;
  try {
    const token = bearerToken(req.headers.authorization);
    if (token !== undefined) {
      if (identities === null)
        throw new HttpRefusal(401, "this server keeps no accounts, so it takes no tokens: join without one");
      const bot = await identities.identityOfToken(token);
      if (bot === null) throw new HttpRefusal(401, "the token is not valid: it is unknown or was revoked");
      return bot;
    }
    if (identities === null) return GUEST;
    const session = cookieValue(req.headers.cookie, SESSION_COOKIE);
    const account = session === undefined ? null : await identities.accountOfSession(session);
    if (account !== null) return { kind: "account", name: account.name };
    const name = typeof options.name === "string" ? options.name : "";
    if (options.spectate !== true && name !== "" && (await nameIsRegistered(identities, name))) {
      throw new HttpRefusal(
        403,
        `the name ${name} is registered: log in, or use its bot's token, to play under it; or choose another name`,
      );
    }
    return GUEST;
  } catch (error) {
    if (error instanceof HttpRefusal) throw error;
    throw new HttpRefusal(503, "the accounts database is not available, so joins cannot be checked; try again");
  }
}

/** A 503 is always a refusal that passes (at capacity, a database away), so it says when to try again; a failure of the server's own is a 500. */
function send(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  const cors = {
    ...matchMaker.controller.DEFAULT_CORS_HEADERS,
    ...matchMaker.controller.getCorsHeaders(new Headers(req.headers as Record<string, string>)),
  };
  const retry = status === 503 ? { "retry-after": String(MATCHMAKING_RETRY_AFTER_SECONDS) } : {};
  res.writeHead(status, {
    ...cors,
    ...retry,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(json),
  });
  res.end(json);
}

/** How long a refused upload may go on being discarded (never kept) while its client reads the answer. */
const DISCARD_MS = 2_000;

/**
 * Closes a connection whose body was refused: the answer goes out, then our side of the connection closes; what
 * the client still sends is discarded unread (closing at once would reset the connection and lose the answer)
 * until it stops or DISCARD_MS pass.
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  res.on("finish", () => {
    req.socket.end();
    req.resume();
    setTimeout(() => req.socket.destroy(), DISCARD_MS).unref();
  });
}

/** Serves one matchmaking request (see the module's comment). */
export async function serveMatchmaking(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const address = clientAddressOf(req);
  try {
    const path = MATCHMAKE_PATH.exec((req.url ?? "").split("?", 1)[0]);
    const body = await readBoundedBody(req, MATCHMAKE_BODY_LIMIT);
    if (path === null)
      throw new HttpRefusal(404, "a matchmaking request is POST /matchmake/<method>/<room name or id>");
    const [, method, target] = path;
    const call = matchmakeMethod(method);
    const options = parseOptions(body);
    await refuseEarly(method, target, options, address);
    const identity = await joinerIdentity(req, method, options);
    const ladderDeal = await ladderDealFor(method, target, options, identity);
    send(req, res, 200, await call(target, options, contextOf(req, address, identity, ladderDeal)));
  } catch (error) {
    const status = statusOf(error);
    // A refusal the server chose to make (at capacity, a database away: each says so) is not a failure.
    if (status >= 500 && !(error instanceof HttpRefusal))
      log.error(
        { event: "matchmaking_failed", kind: error instanceof Error ? error.name : typeof error },
        "a matchmaking request failed",
      );
    send(req, res, status, { code: status, error: messageOf(error, status) });
    if (status === 413) closeAfterAnswer(req, res);
  }
}
