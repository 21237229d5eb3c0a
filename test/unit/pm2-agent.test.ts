import pm2Agent from "@pm2/io";
import { runByPm2, stopPm2AgentOutsidePm2 } from "../../server/runtime/pm2-agent";

describe("PM2's agent, which Colyseus starts on import", () => {
  afterEach(() => jest.restoreAllMocks());

  test("is stopped when PM2 does not run the server", () => {
    const destroy = jest.spyOn(pm2Agent, "destroy").mockImplementation(() => undefined);
    expect(runByPm2({})).toBe(false);
    expect(stopPm2AgentOutsidePm2({})).toBe(true);
    expect(destroy).toHaveBeenCalledTimes(1);
  });

  test("keeps running under PM2, which sets pm_id in its processes", () => {
    const destroy = jest.spyOn(pm2Agent, "destroy").mockImplementation(() => undefined);
    expect(runByPm2({ pm_id: "0" })).toBe(true);
    expect(stopPm2AgentOutsidePm2({ pm_id: "0" })).toBe(false);
    expect(destroy).not.toHaveBeenCalled();
  });

  test("stopped, it no longer lists the process's handles every second", async () => {
    const processInternals = process as unknown as { _getActiveHandles(): unknown[] };
    const listHandles = jest.spyOn(processInternals, "_getActiveHandles");
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // Running, as the import started it: its timers list the handles (at most a few seconds to see it).
    for (let waited = 0; listHandles.mock.calls.length === 0 && waited < 5_000; waited += 100) await pause(100);
    expect(listHandles).toHaveBeenCalled();
    stopPm2AgentOutsidePm2({});
    listHandles.mockClear();
    await pause(2_500);
    expect(listHandles).not.toHaveBeenCalled();
  });
});
