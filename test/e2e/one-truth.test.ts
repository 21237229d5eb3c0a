/** The differential test (one-truth-suite.ts): ONE_TRUTH_MATCHES (1,000) of each game, every client on the main port. */
import { oneTruthSuite } from "./one-truth-suite";

oneTruthSuite({ matches: Number(process.env.ONE_TRUTH_MATCHES ?? 1000), webSocketPort: false });
