// Runs before each test file imports anything: dotenv (loaded by Colyseus' tools) announces every file it reads.
process.env.DOTENV_CONFIG_QUIET = "true";
