import type { TableModule } from "../table";

export const foolTable: TableModule = {
  async watch() {
    throw new Error("not yet");
  },
  async play() {
    throw new Error("not yet");
  },
};
