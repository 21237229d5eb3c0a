/** The tests pick free ports as bin/cluster does. */
import { connect } from "node:net";

export { freePort } from "../../bin/src/lib/free-port";

/** Whether anything accepts a connection on the port (on 127.0.0.1). */
export function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}
