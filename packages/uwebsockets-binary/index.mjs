import uWebSockets from "./index.cjs";

export default uWebSockets;
