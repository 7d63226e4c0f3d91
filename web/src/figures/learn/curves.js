// The two copies' training curves as the page keeps them: the core's per-step records, appended
// slice by slice, plus the record measured at the current weights (the next step's record, to
// the bit). Only thinned views are drawn; the export hands out every step.

export const MEASURES = [
  { key: 'loss', title: 'loss' },
  { key: 'meanPOneMinusP', title: 'mean p(1\u2212p)' },
  { key: 'meanLargestWeight', title: 'mean largest weight' },
  { key: 'gradientNormQ', title: '\u2016dW_Q\u2016' },
  { key: 'gradientNormK', title: '\u2016dW_K\u2016' },
  { key: 'gradientNormV', title: '\u2016dW_V\u2016' },
];

export function createCurves() {
  const copy = () => ({ step: [], ...Object.fromEntries(MEASURES.map((m) => [m.key, []])), current: null });
  let copies = { scaled: copy(), unscaled: copy() };

  return {
    clear() {
      copies = { scaled: copy(), unscaled: copy() };
    },
    /** Appends what train() returned for one copy ({ step, loss, … } typed arrays). */
    append(which, records) {
      const c = copies[which];
      c.current = null; // the weights have moved on
      if (records.step.length === 0) return;
      for (let i = 0; i < records.step.length; i++) {
        c.step.push(records.step[i]);
        for (const m of MEASURES) c[m.key].push(records[m.key][i]);
      }
    },
    setCurrent(which, record) {
      copies[which].current = record;
    },
    current(which) {
      return copies[which].current;
    },
    /** The latest step record of one copy ({ step, loss, … }), or null before the first step. */
    latest(which) {
      const c = copies[which];
      const i = c.step.length - 1;
      return i < 0 ? null : Object.fromEntries([['step', c.step[i]], ...MEASURES.map((m) => [m.key, c[m.key][i]])]);
    },
    /** The current record when it is known, else the latest step's. */
    shown(which) {
      const c = copies[which];
      const latest = this.latest(which);
      return c.current && (!latest || c.current.step > latest.step) ? c.current : latest;
    },
    /**
     * The first step whose loss is below `value`, or null. Steps are only ever appended, so the
     * scan goes on from where the last call left it.
     */
    firstBelow(which, value) {
      const c = copies[which];
      if (c.below?.value !== value) c.below = { value, at: null, scanned: 0 };
      const b = c.below;
      for (; b.at === null && b.scanned < c.loss.length; b.scanned++) {
        if (c.loss[b.scanned] < value) b.at = c.step[b.scanned];
      }
      return b.at;
    },
    length(which) {
      return copies[which].step.length;
    },
    /**
     * At most `count` points of one measure, evenly spaced over the steps, always with the first
     * and the current one: { x: steps, y: values }. Values are the core's, never averaged.
     */
    thinned(which, key, count = 240) {
      const c = copies[which];
      const n = c.step.length;
      const stride = Math.max(1, Math.ceil(n / count));
      const x = [];
      const y = [];
      for (let i = 0; i < n; i += stride) {
        x.push(c.step[i]);
        y.push(c[key][i]);
      }
      if (c.current && (x.length === 0 || x[x.length - 1] !== c.current.step)) {
        x.push(c.current.step);
        y.push(c.current[key]);
      }
      return { x, y };
    },
    /** Rows for the table: about `count` steps evenly spaced, with both copies' numbers. */
    tableRows(count = 12) {
      const s = copies.scaled;
      const u = copies.unscaled;
      const at = (c, step) => (step < c.step.length ? Object.fromEntries(MEASURES.map((m) => [m.key, c[m.key][step]]))
        : c.current && c.current.step === step ? c.current : null);
      const last = Math.max(0, s.current?.step ?? s.step.length - 1, u.current?.step ?? u.step.length - 1);
      const stride = Math.max(1, Math.ceil(last / (count - 1)));
      const steps = [];
      for (let step = 0; step < last; step += stride) steps.push(step);
      steps.push(last);
      return steps.map((step) => ({ step, scaled: at(s, step), unscaled: at(u, step) }));
    },
    /** Every step of both copies, for the export: { rowLabels, colLabels, values }. */
    everyStep() {
      const s = copies.scaled;
      const u = copies.unscaled;
      const rows = Math.max(s.step.length, u.step.length);
      const value = (c, key, i) => (i < c.step.length ? c[key][i] : null);
      return {
        rowLabels: Array.from({ length: rows }, (_, i) => String(i)),
        colLabels: [...MEASURES.map((m) => `scaled ${m.title}`), ...MEASURES.map((m) => `unscaled ${m.title}`)],
        values: Array.from({ length: rows }, (_, i) => [
          ...MEASURES.map((m) => value(s, m.key, i)), ...MEASURES.map((m) => value(u, m.key, i))]),
      };
    },
  };
}
