import { PrometheusMetrics } from "../../server/telemetry/metrics";
import { AiThreads } from "../../server/ai/fool-ai-pool";
import { StallWatch } from "../../server/telemetry/event-loop-stalls";

describe("the Prometheus metrics", () => {
  test("one scrape asks each AI pool for its threads' heaps once, for both of the gauges that give them", async () => {
    const fool = new AiThreads(null, 1);
    const heaps = jest
      .spyOn(fool, "heaps")
      .mockResolvedValue({ threads: 1, physicalBytes: 2_000_000, usedBytes: 1_500_000 });
    const metrics = new PrometheusMetrics(fool, null);

    const { body } = await metrics.text();
    expect(heaps).toHaveBeenCalledTimes(1);
    expect(body).toContain('cardhall_ai_threads{game="fool"} 1');
    expect(body).toContain('cardhall_ai_thread_heap_bytes{game="fool",kind="physical"} 2000000');
    expect(body).toContain('cardhall_ai_thread_heap_bytes{game="fool",kind="used"} 1500000');

    await metrics.text();
    expect(heaps).toHaveBeenCalledTimes(2); // the next scrape asks again
  });

  test("the event loop's stalls and the time they held it, by what held it", async () => {
    const read = jest.spyOn(StallWatch.prototype, "read").mockReturnValue({
      overMs: 50,
      byCause: {
        majorGc: { count: 2, totalMs: 700, longestMs: 400 },
        minorGc: { count: 1, totalMs: 60, longestMs: 60 },
        noCore: { count: 3, totalMs: 250, longestMs: 120 },
        work: { count: 0, totalMs: 0, longestMs: 0 },
      },
      recent: [],
    });
    try {
      const { body } = await new PrometheusMetrics(new AiThreads(null, 1), null).text();
      expect(body).toContain("# TYPE cardhall_event_loop_stalls_total counter");
      expect(body).toContain('cardhall_event_loop_stalls_total{cause="major_gc"} 2');
      expect(body).toContain('cardhall_event_loop_stalls_total{cause="minor_gc"} 1');
      expect(body).toContain('cardhall_event_loop_stalls_total{cause="no_core"} 3');
      expect(body).toContain('cardhall_event_loop_stalls_total{cause="work"} 0');
      expect(body).toContain('cardhall_event_loop_stalled_seconds_total{cause="major_gc"} 0.7');
      expect(body).toContain('cardhall_event_loop_stalled_seconds_total{cause="minor_gc"} 0.06');
    } finally {
      read.mockRestore();
    }
  });
});

test("the actions are counted by game and mover, and each scrape gives the totals so far", async () => {
  const metrics = new PrometheusMetrics(new AiThreads(null, 1), null);
  for (let i = 0; i < 3; i++) metrics.actionTaken("fool", "person");
  metrics.actionTaken("fool", "bot");
  metrics.actionTaken("tractor", "bot");
  const first = (await metrics.text()).body;
  expect(first).toContain("# TYPE cardhall_actions_total counter");
  expect(first).toContain('cardhall_actions_total{game="fool",by="person"} 3');
  expect(first).toContain('cardhall_actions_total{game="fool",by="bot"} 1');
  expect(first).toContain('cardhall_actions_total{game="tractor",by="bot"} 1');
  metrics.actionTaken("fool", "person");
  const second = (await metrics.text()).body;
  expect(second).toContain('cardhall_actions_total{game="fool",by="person"} 4'); // the totals, not counted twice
  expect(second).toContain('cardhall_actions_total{game="tractor",by="bot"} 1');
});
