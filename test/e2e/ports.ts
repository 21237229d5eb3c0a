/** The tests pick free ports as bin/cluster does. */
export { freePort } from "../../bin/src/lib/free-port";
