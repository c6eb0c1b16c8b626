/** Rounds to `digits` decimals (figures in results are read by people; more digits are noise). */
export function round(value: number, digits = 2): number {
  return Math.round(value * 10 ** digits) / 10 ** digits;
}

export interface Percentiles {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/**
 * Nearest-rank percentiles of every sample, to 0.1 (ms): the smallest sample with at least the
 * fraction of samples at or below it. No samples gives zeros with a count of 0.
 */
export function percentiles(samples: number[]): Percentiles {
  if (samples.length === 0) return { count: 0, p50: 0, p95: 0, p99: 0, max: 0, mean: 0 };
  const sorted = Float64Array.from(samples).sort();
  const at = (fraction: number) => sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1))]!;
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  return {
    count: sorted.length,
    p50: round(at(0.5), 1),
    p95: round(at(0.95), 1),
    p99: round(at(0.99), 1),
    max: round(sorted.at(-1)!, 1),
    mean: round(mean, 1),
  };
}
