/**
 * Logistic regression by Newton's method (few features, so the exact Hessian is cheap), used to
 * fit the offline reranker's weights: pairwise for the ranking, then pointwise for calibration.
 */
export function fitLogistic(xs: readonly number[][], ys: readonly number[], options: { l2?: number; sampleWeights?: readonly number[] } = {}): number[] {
  const { l2 = 0, sampleWeights } = options;
  const d = xs[0]?.length ?? 0;
  let w = new Array<number>(d).fill(0);
  for (let iteration = 0; iteration < 50; iteration++) {
    const gradient = new Array<number>(d).fill(0);
    const hessian = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    xs.forEach((x, i) => {
      const p = sigmoid(dot(w, x));
      const s = sampleWeights?.[i] ?? 1;
      const error = (p - ys[i]!) * s;
      const curvature = p * (1 - p) * s;
      for (let a = 0; a < d; a++) {
        gradient[a]! += error * x[a]!;
        const row = hessian[a]!;
        for (let b = 0; b < d; b++) row[b]! += curvature * x[a]! * x[b]!;
      }
    });
    for (let a = 0; a < d; a++) {
      gradient[a]! += l2 * w[a]!;
      hessian[a]![a]! += l2;
    }
    const step = solve(hessian, gradient);
    w = w.map((v, j) => v - step[j]!);
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  return w;
}

/**
 * Weights that order each query's relevant passages above its irrelevant ones: logistic regression
 * on feature differences of every (relevant, irrelevant) pair, each query weighing the same.
 */
export function fitPairwise(queries: readonly { x: number[]; relevant: boolean }[][], l2: number): number[] {
  const xs: number[][] = [];
  const ys: number[] = [];
  const weights: number[] = [];
  for (const rows of queries) {
    const pos = rows.filter((r) => r.relevant);
    const neg = rows.filter((r) => !r.relevant);
    if (pos.length === 0 || neg.length === 0) continue;
    const share = 1 / (pos.length * neg.length);
    for (const p of pos) {
      for (const n of neg) {
        const diff = p.x.map((v, j) => v - n.x[j]!);
        // Both orientations, so no intercept is needed and the fit stays symmetric.
        xs.push(diff, diff.map((v) => -v));
        ys.push(1, 0);
        weights.push(share, share);
      }
    }
  }
  return fitLogistic(xs, ys, { l2, sampleWeights: weights });
}

export const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, v, i) => s + v * b[i]!, 0);

/** Gauss-Jordan elimination with partial pivoting. */
function solve(matrix: number[][], rhs: number[]): number[] {
  const n = rhs.length;
  const m = matrix.map((row, i) => [...row, rhs[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    const p = m[c]!;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const row = m[r]!;
      const f = row[c]! / p[c]!;
      for (let k = c; k <= n; k++) row[k] = row[k]! - f * p[k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}
