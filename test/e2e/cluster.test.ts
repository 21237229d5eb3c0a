/** The cluster suite (cluster-suite.ts) with each process taking its clients' WebSockets on its main port. */
import { clusterSuite } from "./cluster-suite";

clusterSuite({ webSocketPorts: false });
