/**
 * Identities (docs/arena.md): accounts for people, bots that accounts own, the bots' tokens, and the page's
 * login sessions, kept in the records' database.
 *
 * Passwords are hashed with Argon2id (@node-rs/argon2: OWASP's first choice, run on libuv's threads so a login
 * never blocks the event loop; its binary ships inside the npm package). A token or a session is 32 random bytes;
 * only its SHA-256 is stored: a fast hash is enough for a secret that long (nobody can guess one to hash), and a
 * lookup by it is one indexed read. A token is shown once, when it is made.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";
import type { PlayerIdentity } from "../../rooms/kit/record";
import { createQueryId, type CompiledQuery } from "kysely";
import type { RecordsDb } from "../records/database";
import { isHouseName } from "../arena/house-bots";
import { nameKey, nameProblem } from "./names";

/** Who a join speaks for: an account (a person), a bot and its owner (a program), or a guest (anyone else). */
export type Identity =
  | { kind: "account"; name: string }
  | { kind: "bot"; name: string; owner: string }
  | { kind: "guest" };

export interface Account {
  id: string;
  name: string;
}

export interface BotListing {
  name: string;
  tokens: Array<{ id: string; label: string; createdAt: number; revokedAt: number | null }>;
}

/** A request the identities refuse: its HTTP status and a sentence for the client. */
export class IdentityRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;
export const LABEL_MAX = 60;
/** How long a login lasts without use. */
export const SESSION_DAYS = 30;
const TOKEN_PREFIX = "cht_";

function sha256(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

function secret(): string {
  return randomBytes(32).toString("base64url");
}

/** A hash to verify against when the name is unknown, so a wrong name takes as long as a wrong password. */
let decoyHash: Promise<string> | undefined;

export class IdentityStore {
  /** The query `isRegistered` runs, compiled at its first use. */
  private nameQuery: CompiledQuery<{ name_key: string }> | undefined;

  constructor(private readonly db: RecordsDb) {}

  /** Registers a person's account; the name must follow the rule and be free. */
  async createAccount(name: string, password: string): Promise<Account> {
    checkName(name);
    if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX)
      throw new IdentityRefusal(400, `a password has ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
    const account = { id: randomUUID(), name };
    const passwordHash = await argon2Hash(password);
    await this.claimName(name, "account", (trx, key) =>
      trx
        .insertInto("accounts")
        .values({ id: account.id, name, name_key: key, password_hash: passwordHash, created_at: Date.now() })
        .execute(),
    );
    return account;
  }

  /** A new login session for the name and password (its secret, for the cookie), or a refusal that names neither. */
  async login(name: string, password: string): Promise<{ account: Account; session: string }> {
    const row = await this.db
      .selectFrom("accounts")
      .select(["id", "name", "password_hash"])
      .where("name_key", "=", nameKey(name))
      .executeTakeFirst();
    const matches = await argon2Verify(
      row?.password_hash ?? (await (decoyHash ??= argon2Hash(secret()))),
      password,
    ).catch(() => false);
    if (!row || !matches) throw new IdentityRefusal(401, "that name and password do not match an account");
    const session = secret();
    const now = Date.now();
    await this.db
      .insertInto("sessions")
      .values({
        token_hash: sha256(session),
        account_id: row.id,
        created_at: now,
        expires_at: now + SESSION_DAYS * 86_400_000,
      })
      .execute();
    return { account: { id: row.id, name: row.name }, session };
  }

  /** The account a session's secret is logged in as, while it lasts. */
  async accountOfSession(session: string): Promise<Account | null> {
    const row = await this.db
      .selectFrom("sessions")
      .innerJoin("accounts", "accounts.id", "sessions.account_id")
      .select(["accounts.id", "accounts.name", "sessions.expires_at"])
      .where("sessions.token_hash", "=", sha256(session))
      .executeTakeFirst();
    if (!row || Number(row.expires_at) < Date.now()) return null;
    return { id: row.id, name: row.name };
  }

  async logout(session: string): Promise<void> {
    await this.db.deleteFrom("sessions").where("token_hash", "=", sha256(session)).execute();
  }

  /** Registers a bot under the account; its name is taken like an account's. */
  async createBot(owner: Account, name: string): Promise<{ name: string }> {
    checkName(name);
    await this.claimName(name, "bot", (trx, key) =>
      trx
        .insertInto("bots")
        .values({ id: randomUUID(), account_id: owner.id, name, name_key: key, created_at: Date.now() })
        .execute(),
    );
    return { name };
  }

  async bots(owner: Account): Promise<BotListing[]> {
    const rows = await this.db
      .selectFrom("bots")
      .leftJoin("bot_tokens", "bot_tokens.bot_id", "bots.id")
      .select([
        "bots.name",
        "bots.created_at as botCreated",
        "bot_tokens.id",
        "bot_tokens.label",
        "bot_tokens.created_at",
        "bot_tokens.revoked_at",
      ])
      .where("bots.account_id", "=", owner.id)
      .orderBy("bots.created_at")
      .orderBy("bot_tokens.created_at")
      .execute();
    const byName = new Map<string, BotListing>();
    for (const row of rows) {
      const bot = byName.get(row.name) ?? { name: row.name, tokens: [] };
      byName.set(row.name, bot);
      if (row.id !== null)
        bot.tokens.push({
          id: row.id,
          label: row.label ?? "",
          createdAt: Number(row.created_at),
          revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
        });
    }
    return [...byName.values()];
  }

  /** A new token for one of the account's bots: returned once, stored only as its hash. */
  async createToken(
    owner: Account,
    botName: string,
    label: string,
  ): Promise<{ id: string; label: string; token: string }> {
    if (label.length > LABEL_MAX) throw new IdentityRefusal(400, `a token's label has at most ${LABEL_MAX} characters`);
    const bot = await this.ownBot(owner, botName);
    const token = `${TOKEN_PREFIX}${secret()}`;
    const id = randomUUID();
    await this.db
      .insertInto("bot_tokens")
      .values({ id, bot_id: bot.id, label, token_hash: sha256(token), created_at: Date.now(), revoked_at: null })
      .execute();
    return { id, label, token };
  }

  /** Revokes a token of one of the account's bots: it is refused from then on. */
  async revokeToken(owner: Account, botName: string, tokenId: string): Promise<void> {
    const bot = await this.ownBot(owner, botName);
    const result = await this.db
      .updateTable("bot_tokens")
      .set({ revoked_at: Date.now() })
      .where("id", "=", tokenId)
      .where("bot_id", "=", bot.id)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0)
      throw new IdentityRefusal(404, `${botName} has no live token with that id`);
  }

  /** The bot a token speaks for, or null for a token that is unknown or revoked. */
  async identityOfToken(token: string): Promise<Identity | null> {
    if (!token.startsWith(TOKEN_PREFIX)) return null;
    const row = await this.db
      .selectFrom("bot_tokens")
      .innerJoin("bots", "bots.id", "bot_tokens.bot_id")
      .innerJoin("accounts", "accounts.id", "bots.account_id")
      .select(["bots.name as bot", "accounts.name as owner", "bot_tokens.revoked_at"])
      .where("bot_tokens.token_hash", "=", sha256(token))
      .executeTakeFirst();
    if (!row || row.revoked_at !== null) return null;
    return { kind: "bot", name: row.bot, owner: row.owner };
  }

  /** Whether an account, a bot or the house holds this name (or one the same under the rule). */
  async isRegistered(name: string): Promise<boolean> {
    if (isHouseName(name)) return true;
    // Every guest's join asks this: the query is compiled once, and each asking gives it its key (building and
    // compiling it each time was a third of the matchmaking route's time under a load test's joins).
    this.nameQuery ??= this.db.selectFrom("names").select("name_key").where("name_key", "=", "").compile();
    const { rows } = await this.db.executeQuery({
      ...this.nameQuery,
      parameters: [nameKey(name)],
      queryId: createQueryId(),
    });
    return rows.length > 0;
  }

  /** The account or bot registered under this name or one the same under the rule, as registered; null for none. */
  async registeredAs(name: string): Promise<{ name: string; identity: PlayerIdentity } | null> {
    const key = nameKey(name);
    const account = await this.db.selectFrom("accounts").select("name").where("name_key", "=", key).executeTakeFirst();
    if (account) return { name: account.name, identity: { kind: "account" } };
    const bot = await this.db
      .selectFrom("bots")
      .innerJoin("accounts", "accounts.id", "bots.account_id")
      .select(["bots.name as bot", "accounts.name as owner"])
      .where("bots.name_key", "=", key)
      .executeTakeFirst();
    return bot ? { name: bot.bot, identity: { kind: "bot", owner: bot.owner } } : null;
  }

  private async ownBot(owner: Account, botName: string): Promise<{ id: string }> {
    const bot = await this.db
      .selectFrom("bots")
      .select("id")
      .where("account_id", "=", owner.id)
      .where("name_key", "=", nameKey(botName))
      .executeTakeFirst();
    if (!bot) throw new IdentityRefusal(404, `you have no bot named ${botName}`);
    return bot;
  }

  /** Takes the name's key for an account or a bot and inserts its row, in one transaction: a name is taken once. */
  private async claimName(
    name: string,
    kind: "account" | "bot",
    insert: (trx: RecordsDb, key: string) => Promise<unknown>,
  ): Promise<void> {
    const key = nameKey(name);
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx.insertInto("names").values({ name_key: key, kind }).execute();
        await insert(trx, key);
      });
    } catch (error) {
      if (await this.isRegistered(name))
        throw new IdentityRefusal(
          409,
          `the name ${name} is taken (names that differ only by case, separators or look-alike characters are one name)`,
        );
      throw error;
    }
  }
}

function checkName(name: string): void {
  const problem = nameProblem(name);
  if (problem !== null) throw new IdentityRefusal(400, problem);
  if (isHouseName(name)) throw new IdentityRefusal(409, `the name ${name} is the house's: its bots play under it`);
}
