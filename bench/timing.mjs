// Timing shared by the benchmark's scripts: the things compared take turns, in batches of about
// 5 ms, so that a ratio compares rates taken milliseconds apart.

export const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
export const geomean = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);

/**
 * Milliseconds of CPU time this process has used. Batches are timed by it, not by the clock:
 * on a machine shared with other work (two cores, a load of ten while these rates were taken)
 * a batch timed by the clock counted the time the process waited for a core, and the same code
 * measured 0.1× to 10× of itself from one row to the next.
 */
export const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Operations per CPU second of each of `fns`, measured in alternation: rounds of one batch of
 * each (a batch runs about 5 ms; the order turns each round), so that a ratio compares rates
 * taken milliseconds apart. This kind of VM drifts by a fifth or more within seconds: measured
 * one after the other for 400 ms each, the libraries met different machines (in one run the same
 * code fell from 0.51× to 0.35× of Ajv on one row). Returns each one's median rate, and
 * `ratio(f)`: the median over the rounds of `f(rates of the round)`.
 */
export function interleaved(fns, quick, budget = (quick ? 120 : 400) * fns.length) {
  const batch = (fn) => {
    fn();
    let n = 1;
    for (;;) {
      const t = cpuNow();
      for (let i = 0; i < n; i++) fn();
      if (cpuNow() - t >= 5 || n >= 1 << 20) return n;
      n *= 2;
    }
  };
  // Sized twice, the larger kept: the process's CPU time also counts V8's compiler and GC
  // threads, which may still be busy from a warm-up, and a first batch charged their 5 ms left
  // a batch of one call, timed below the clock's resolution (a row read 20× slower).
  const sizes = fns.map((fn) => Math.max(batch(fn), batch(fn)));
  const rounds = [];
  const start = performance.now();
  while (rounds.length < 5 || (performance.now() - start < budget && rounds.length < 200)) {
    const rates = new Array(fns.length);
    for (let k = 0; k < fns.length; k++) {
      const j = (k + rounds.length) % fns.length;
      const t = cpuNow();
      for (let i = 0; i < sizes[j]; i++) fns[j]();
      rates[j] = (sizes[j] * 1000) / Math.max(1e-3, cpuNow() - t);
    }
    rounds.push(rates);
  }
  return { rates: fns.map((_, j) => median(rounds.map((r) => r[j]))), ratio: (f) => median(rounds.map(f)) };
}
