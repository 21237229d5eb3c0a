/**
 * The identities' store on both databases: the same accounts, bots, tokens and logins made in an SQLite file and
 * in a PostgreSQL server give the same answers; a name is taken once across accounts and bots; secrets are stored
 * only as hashes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { RecordStore } from "../../server/records/store";
import { IdentityRefusal, type IdentityStore } from "../../server/identity/store";
import { bothDatabases } from "./databases";

const databases = bothDatabases("cardhall-identities-");

async function refusal(attempt: Promise<unknown>): Promise<number> {
  const error = await attempt.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(IdentityRefusal);
  return (error as IdentityRefusal).status;
}

/** One run of every operation; the answers with the random parts (ids, secrets, times) taken out. */
async function run(identities: IdentityStore) {
  const ann = await identities.createAccount("Ann", "a long password");
  const clashes = [
    await refusal(identities.createAccount("ANN", "another password")),
    await refusal(identities.createBot(ann, "a-n-n")),
  ];
  const { session } = await identities.login("ann", "a long password");
  const wrong = await refusal(identities.login("Ann", "not the password"));
  const nobody = await refusal(identities.login("Nobody", "a long password"));
  await identities.createBot(ann, "Ann Bot");
  const first = await identities.createToken(ann, "ann bot", "laptop");
  const second = await identities.createToken(ann, "Ann Bot", "server");
  await identities.revokeToken(ann, "Ann Bot", first.id);
  const revokedTwice = await refusal(identities.revokeToken(ann, "Ann Bot", first.id));
  const bea = await identities.createAccount("Bea", "b long password");
  const notHers = await refusal(identities.createToken(bea, "Ann Bot", "stolen"));
  const listing = await identities.bots(ann);
  const answers = {
    clashes,
    wrong,
    nobody,
    revokedTwice,
    notHers,
    sessionAccount: (await identities.accountOfSession(session))?.name,
    badSession: await identities.accountOfSession("nonsense"),
    firstToken: await identities.identityOfToken(first.token),
    secondToken: await identities.identityOfToken(second.token),
    junkToken: await identities.identityOfToken("cht_junk"),
    registered: [await identities.isRegistered("ann-bot"), await identities.isRegistered("Cy")],
    listing: listing.map((bot) => ({
      name: bot.name,
      tokens: bot.tokens.map((token) => ({ label: token.label, revoked: token.revokedAt !== null })),
    })),
  };
  await identities.logout(session);
  return {
    ...answers,
    afterLogout: await identities.accountOfSession(session),
    secrets: [session, first.token, second.token],
  };
}

test("SQLite and PostgreSQL give the same answers, and keep no secret in the clear", async () => {
  const results = [];
  for (const config of [{ file: path.join(databases.tempDir, "identities.sqlite") }, { url: databases.postgresUrl }]) {
    const store = await RecordStore.open(config);
    const { secrets, ...answers } = await run(store.identities());
    results.push(answers);
    await store.close();
    if (config.file) {
      const bytes = fs.readFileSync(config.file).toString("latin1");
      for (const secret of [...secrets, "a long password"]) expect(bytes).not.toContain(secret);
    }
  }
  const [sqlite, pg] = results;
  expect(sqlite).toEqual({
    clashes: [409, 409],
    wrong: 401,
    nobody: 401,
    revokedTwice: 404,
    notHers: 404,
    sessionAccount: "Ann",
    badSession: null,
    firstToken: null,
    secondToken: { kind: "bot", name: "Ann Bot", owner: "Ann" },
    junkToken: null,
    registered: [true, false],
    listing: [
      {
        name: "Ann Bot",
        tokens: [
          { label: "laptop", revoked: true },
          { label: "server", revoked: false },
        ],
      },
    ],
    afterLogout: null,
  });
  expect(pg).toEqual(sqlite);
}, 60_000);
