/** Starts the server: `HOST` and `PORT` from the environment, 127.0.0.1:2567 by default. */
import { makeServer } from "./app";

const DEFAULT_HOST = "127.0.0.1";
const DEFAULT_PORT = 2567;

async function main(): Promise<void> {
  const host = process.env.HOST || DEFAULT_HOST;
  const port = Number(process.env.PORT || DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${process.env.PORT}"`);
  const server = makeServer();
  await server.listen(port, host);
  console.log(`cardhall listening on ws://${host}:${port} (health: http://${host}:${port}/health, rooms: /rooms)`);
}

main().catch((error: unknown) => {
  console.error(`cardhall: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
