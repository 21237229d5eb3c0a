/**
 * The page's side of identities (docs/arena.md, "Accounts, bots and tokens over HTTP"): who this browser is logged
 * in as, signing up, logging in and out, and the account's bots and their tokens. The login is an HTTP-only cookie
 * the page never reads: it goes by itself with every request to this origin, the matchmaking requests of the
 * Colyseus client included (it sends credentials), so the tables seat the account. Refusals are the server's own
 * sentences, thrown as errors for the page to show in place.
 */
import { setAccountName } from "./name";

export interface BotToken {
  id: string;
  label: string;
  createdAt: number;
  revokedAt: number | null;
}

export interface Bot {
  name: string;
  tokens: BotToken[];
}

/** Calls the server's identity routes (an answer without a body, 204, is undefined); a refusal is thrown with the server's sentence. */
async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Error("the server cannot be reached; try again");
  }
  const answer = (await response.json().catch(() => undefined)) as (T & { error?: string }) | undefined;
  if (!response.ok) throw new Error(answer?.error ?? `the server answered ${response.status}`);
  return answer as T;
}

/** Asks the server who this browser is logged in as (null for nobody, or for a server that keeps no accounts). */
export async function loadAccount(): Promise<string | null> {
  const name = await call<{ name: string | null }>("GET", "/session").then(
    (answer) => answer.name,
    () => null,
  );
  setAccountName(name);
  return name;
}

export async function signUp(name: string, password: string): Promise<string> {
  const answer = await call<{ name: string }>("POST", "/accounts", { name, password });
  setAccountName(answer.name);
  return answer.name;
}

export async function logIn(name: string, password: string): Promise<string> {
  const answer = await call<{ name: string }>("POST", "/session", { name, password });
  setAccountName(answer.name);
  return answer.name;
}

export async function logOut(): Promise<void> {
  await fetch("/session", { method: "DELETE" }).catch(() => undefined);
  setAccountName(null);
}

export async function myBots(): Promise<Bot[]> {
  return (await call<{ bots: Bot[] }>("GET", "/bots")).bots;
}

export async function makeBot(name: string): Promise<void> {
  await call("POST", "/bots", { name });
}

/** A new token for the bot: the one time the server shows it. */
export async function makeToken(bot: string, label: string): Promise<{ id: string; label: string; token: string }> {
  return call("POST", `/bots/${encodeURIComponent(bot)}/tokens`, { label });
}

export async function revokeToken(bot: string, id: string): Promise<void> {
  await call("DELETE", `/bots/${encodeURIComponent(bot)}/tokens/${encodeURIComponent(id)}`);
}
