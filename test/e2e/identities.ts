/** Identities for end-to-end tests: an account and a bot with a token, made over the server's HTTP API. */
import { CardhallClient } from "../../client-sdk";

/** Makes the account `owner` (if new) and its bot `bot`, and returns a fresh token for the bot. */
export async function registerBot(
  httpUrl: string,
  owner: string,
  bot: string,
  password = "a long password",
): Promise<string> {
  const post = (path: string, body: unknown, cookie = "") =>
    fetch(`${httpUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify(body),
    });
  let login = await post("/accounts", { name: owner, password });
  if (login.status === 409) login = await post("/session", { name: owner, password });
  if (!login.ok) throw new Error(`no account ${owner}: ${login.status} ${await login.text()}`);
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
  const made = await post("/bots", { name: bot }, cookie);
  if (made.status !== 201 && made.status !== 409) throw new Error(`no bot ${bot}: ${made.status} ${await made.text()}`);
  const token = await post(`/bots/${encodeURIComponent(bot)}/tokens`, { label: "test" }, cookie);
  if (token.status !== 201) throw new Error(`no token for ${bot}: ${token.status} ${await token.text()}`);
  return ((await token.json()) as { token: string }).token;
}

/** An SDK client that plays as the bot `bot` of the account `owner` (both made if new) on `server`. */
export async function botClient(
  server: { url: string; httpUrl: string },
  owner: string,
  bot: string,
): Promise<CardhallClient> {
  return new CardhallClient(server.url, { token: await registerBot(server.httpUrl, owner, bot) });
}
