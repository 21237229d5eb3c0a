/**
 * The differential test (one-truth-suite.ts): ONE_TRUTH_MATCHES (1,000) of each game, every client on the main port.
 * `npm test` plays 200 of each; `npm run test:proofs` the full count.
 */
import { oneTruthSuite } from "./one-truth-suite";

oneTruthSuite({ matches: Number(process.env.ONE_TRUTH_MATCHES ?? 1000), webSocketPort: false });
