import type { TableModule } from "../table";

export const tractorTable: TableModule = {
  async watch() {
    throw new Error("not yet");
  },
  async play() {
    throw new Error("not yet");
  },
};
