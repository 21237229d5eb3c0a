import * as uWebSockets from "uws-pack";

export * from "uws-pack";
export default uWebSockets;
