/** Fixed fast-check settings for CI: a known seed (override with FC_SEED), a fixed number of runs. */
export const FC_SEED = Number(process.env['FC_SEED'] ?? 20261129);

export function fcParams(numRuns: number) {
  return { seed: FC_SEED, numRuns, endOnFailure: true, interruptAfterTimeLimit: 120_000 } as const;
}
