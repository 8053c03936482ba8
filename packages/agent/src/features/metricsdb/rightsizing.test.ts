import { describe, expect, it } from 'vitest';
import { recommend, roundCpu, roundMemory } from './rightsizing.ts';

const mib = 2 ** 20;

describe('rightsizing', () => {
  it('recommends p95 CPU + 15 % and peak memory + 20 %, and counts the saving over the replicas', () => {
    const r = recommend(
      { container: 'app', cpuP95Cores: 0.034, cpuMaxCores: 0.05, memoryMaxBytes: 64 * mib },
      {
        cpuRequestCores: 0.1,
        cpuLimitCores: 0.5,
        memoryRequestBytes: 128 * mib,
        memoryLimitBytes: 256 * mib,
      },
      3,
    );
    // 0.034 × 1.15 = 0.0391 → 40m; 64Mi × 1.2 = 76.8Mi → 77Mi
    expect(r.recommended).toEqual({
      cpuRequestCores: 0.04,
      cpuLimitCores: 0.08,
      memoryRequestBytes: 77 * mib,
      memoryLimitBytes: 77 * mib,
    });
    expect(r.cpu).toBe('over-provisioned');
    expect(r.memory).toBe('over-provisioned');
    expect(r.saving).toEqual({ cpuCores: 0.18, memoryBytes: 3 * 51 * mib });
  });

  it('says under-provisioned with a negative saving, and names missing requests and missing data', () => {
    const tight = recommend(
      { container: 'a', cpuP95Cores: 0.5, memoryMaxBytes: 600 * mib },
      { cpuRequestCores: 0.25, memoryRequestBytes: 512 * mib },
      1,
    );
    expect(tight.cpu).toBe('under-provisioned');
    expect(tight.saving.cpuCores).toBe(-0.325);
    const free = recommend({ container: 'b', cpuP95Cores: 0.001 }, {}, 2);
    expect(free.recommended.cpuRequestCores).toBe(0.01);
    expect(free.recommended.cpuLimitCores).toBeUndefined();
    expect([free.cpu, free.memory]).toEqual(['no-request', 'no-data']);
    expect(free.saving).toEqual({ cpuCores: undefined, memoryBytes: undefined });
  });

  it('keeps within 20 % above the recommendation as right-sized', () => {
    expect(recommend({ container: 'c', cpuP95Cores: 0.1 }, { cpuRequestCores: 0.13 }, 1).cpu).toBe(
      'right-sized',
    );
  });

  it('rounds up to whole millicores and MiB without float noise', () => {
    expect(roundCpu(0.0391)).toBe(0.04);
    expect(roundCpu(0.02 * 1.15 * 1)).toBe(0.023);
    expect(roundMemory(mib + 1)).toBe(2 * mib);
  });
});
