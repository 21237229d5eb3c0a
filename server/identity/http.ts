/**
 * Identities over HTTP (docs/arena.md): accounts, the page's login (an HTTP-only cookie), bots and their tokens.
 * Every body is a small JSON object checked with zod; logins, new accounts and new tokens are rate-limited per
 * client address (express-rate-limit, in memory: each process of a cluster counts its own); no password or token
 * is ever logged or sent back except a new token, once.
 */
import express, { type Application, type Request, type RequestHandler, type Response } from "express";
import { ipKeyGenerator, rateLimit } from "express-rate-limit";
import { z } from "zod";
import { clientAddressOf } from "../matchmaking";
import type { Records } from "../records";
import { cookieValue, SESSION_COOKIE } from "./session-cookie";
import { SESSION_DAYS, IdentityRefusal, type Account, type IdentityStore } from "./store";

const BODY_LIMIT = "4kb";

const credentials = z.strictObject({ name: z.string().max(100), password: z.string().max(1000) });
const newBot = z.strictObject({ name: z.string().max(100) });
const newToken = z.strictObject({ label: z.string().max(100).default("") });

/** At most `limit` requests a window per client address; past it a 429 with a sentence. */
function limited(limit: number, windowMs: number, what: string): RequestHandler {
  if (limit === 0) return (_req, _res, next) => next();
  return rateLimit({
    windowMs,
    limit,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    keyGenerator: (req) => ipKeyGenerator(clientAddressOf(req) ?? "unknown"),
    handler: (_req, res) => void res.status(429).json({ error: `too many ${what} from your address; try again later` }),
  });
}

function setSessionCookie(req: Request, res: Response, session: string): void {
  res.cookie(SESSION_COOKIE, session, {
    httpOnly: true,
    sameSite: "lax",
    secure: req.secure,
    path: "/",
    maxAge: SESSION_DAYS * 86_400_000,
  });
}

type Handler = (identities: IdentityStore, req: Request, res: Response) => Promise<void>;

/** Runs a handler: a refusal answers its status and sentence; a database that fails, 503; never a stack. */
function guarded(records: Records | null, handler: Handler) {
  return async (req: Request, res: Response) => {
    if (records === null) {
      res.status(503).json({ error: "this server keeps no records, so it has no accounts (RECORDS=off)" });
      return;
    }
    try {
      await handler(records.identities, req, res);
    } catch (error) {
      if (error instanceof IdentityRefusal) res.status(error.status).json({ error: error.message });
      else res.status(503).json({ error: "the accounts database is not available; try again" });
    }
  };
}

/** The account the request's cookie is logged in as; a 401 refusal without one. */
async function loggedIn(identities: IdentityStore, req: Request): Promise<Account> {
  const session = cookieValue(req.headers.cookie, SESSION_COOKIE);
  const account = session === undefined ? null : await identities.accountOfSession(session);
  if (account === null) throw new IdentityRefusal(401, "log in first");
  return account;
}

function parsed<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body ?? {});
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new IdentityRefusal(400, `bad field ${issue?.path.join(".") || "(body)"}: ${issue?.message ?? "invalid"}`);
  }
  return result.data;
}

/** Reads a JSON body of at most BODY_LIMIT; a body too long or not JSON is a 413 or 400 with a sentence, never a stack. */
function jsonBody(): RequestHandler {
  const read = express.json({ limit: BODY_LIMIT });
  return (req, res, next) =>
    read(req, res, (error?: unknown) => {
      if (error === undefined) return next();
      const tooLong = (error as { type?: string }).type === "entity.too.large";
      res
        .status(tooLong ? 413 : 400)
        .json({ error: tooLong ? `the body is over ${BODY_LIMIT}` : "the body is not a JSON object" });
    });
}

/** Requests one client address may make (LOGINS_PER_MINUTE, SIGNUPS_PER_HOUR, TOKENS_PER_HOUR); 0 for no bound. */
export interface IdentityLimits {
  loginsPerMinute: number;
  signupsPerHour: number;
  tokensPerHour: number;
}

export const DEFAULT_IDENTITY_LIMITS: IdentityLimits = { loginsPerMinute: 10, signupsPerHour: 20, tokensPerHour: 30 };

export function identityRoutes(app: Application, records: Records | null, limits: Partial<IdentityLimits> = {}): void {
  const { loginsPerMinute, signupsPerHour, tokensPerHour } = { ...DEFAULT_IDENTITY_LIMITS, ...limits };
  const json = jsonBody();
  const logins = limited(loginsPerMinute, 60_000, "logins");
  const signups = limited(signupsPerHour, 60 * 60_000, "new accounts");
  const tokens = limited(tokensPerHour, 60 * 60_000, "new tokens");

  app.post(
    "/accounts",
    signups,
    json,
    guarded(records, async (identities, req, res) => {
      const { name, password } = parsed(credentials, req.body);
      await identities.createAccount(name, password);
      const { account, session } = await identities.login(name, password);
      setSessionCookie(req, res, session);
      res.status(201).json({ name: account.name });
    }),
  );

  app.post(
    "/session",
    logins,
    json,
    guarded(records, async (identities, req, res) => {
      const { name, password } = parsed(credentials, req.body);
      const { account, session } = await identities.login(name, password);
      setSessionCookie(req, res, session);
      res.json({ name: account.name });
    }),
  );

  // Who is logged in is a question, not a request that needs a login: every page load asks it, so "nobody" is the
  // answer `{ name: null }` (a 401 would be an error in every logged-out visitor's console), without accounts too.
  const whoIsLoggedIn = guarded(records, async (identities, req, res) => {
    const session = cookieValue(req.headers.cookie, SESSION_COOKIE);
    res.json({ name: session === undefined ? null : ((await identities.accountOfSession(session))?.name ?? null) });
  });
  app.get("/session", (req, res) => (records === null ? void res.json({ name: null }) : whoIsLoggedIn(req, res)));

  app.delete(
    "/session",
    guarded(records, async (identities, req, res) => {
      const session = cookieValue(req.headers.cookie, SESSION_COOKIE);
      if (session !== undefined) await identities.logout(session);
      res.clearCookie(SESSION_COOKIE, { path: "/" });
      res.status(204).end();
    }),
  );

  app.get(
    "/bots",
    guarded(records, async (identities, req, res) => {
      res.json({ bots: await identities.bots(await loggedIn(identities, req)) });
    }),
  );

  app.post(
    "/bots",
    json,
    guarded(records, async (identities, req, res) => {
      const owner = await loggedIn(identities, req);
      res.status(201).json(await identities.createBot(owner, parsed(newBot, req.body).name));
    }),
  );

  app.post(
    "/bots/:name/tokens",
    tokens,
    json,
    guarded(records, async (identities, req, res) => {
      const owner = await loggedIn(identities, req);
      res
        .status(201)
        .json(await identities.createToken(owner, String(req.params.name), parsed(newToken, req.body).label));
    }),
  );

  app.delete(
    "/bots/:name/tokens/:id",
    guarded(records, async (identities, req, res) => {
      const owner = await loggedIn(identities, req);
      await identities.revokeToken(owner, String(req.params.name), String(req.params.id));
      res.status(204).end();
    }),
  );
}
