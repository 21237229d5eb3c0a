import { PrometheusMetrics } from "../../server/metrics";
import { AiThreads } from "../../server/fool-ai-pool";

describe("the Prometheus metrics", () => {
  test("one scrape asks each AI pool for its threads' heaps once, for both of the gauges that give them", async () => {
    const fool = new AiThreads(null, 1);
    const heaps = jest.spyOn(fool, "heaps").mockResolvedValue({ threads: 1, physicalBytes: 2_000_000, usedBytes: 1_500_000 });
    const metrics = new PrometheusMetrics(fool, null);

    const { body } = await metrics.text();
    expect(heaps).toHaveBeenCalledTimes(1);
    expect(body).toContain('cardhall_ai_threads{game="fool"} 1');
    expect(body).toContain('cardhall_ai_thread_heap_bytes{game="fool",kind="physical"} 2000000');
    expect(body).toContain('cardhall_ai_thread_heap_bytes{game="fool",kind="used"} 1500000');

    await metrics.text();
    expect(heaps).toHaveBeenCalledTimes(2); // the next scrape asks again
  });
});
