// The Export menu's text files: a matrix or a plot's data series as CSV or JSON, and the
// file-name slug. Pure functions over plain values, tested under node (tests/js/page/export-files.test.mjs).

function cleanNumber(value) {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * Brings whatever a getMatrix callback returned into one shape:
 * { rows, cols, rowLabels, colLabels, rowTitle, colTitle, values: (number|null)[][] }, or null.
 */
export function normaliseMatrix(raw) {
  if (!raw) return null;
  let values;
  const source = raw.matrix ?? (Array.isArray(raw.values) ? raw.values : raw);
  if (Array.isArray(source)) {
    values = source.map((row) => Array.from(row, cleanNumber));
  } else if (source && Number.isInteger(source.rows) && Number.isInteger(source.cols) && source.data) {
    values = Array.from({ length: source.rows }, (_, i) => Array.from(
      { length: source.cols }, (_, j) => cleanNumber(source.data[i * source.cols + j]),
    ));
  } else {
    return null;
  }
  const rows = values.length;
  const cols = rows ? values[0].length : 0;
  if (values.some((row) => row.length !== cols)) return null;
  const labels = (given, count) => (Array.isArray(given) && given.length === count
    ? given.map(String) : Array.from({ length: count }, (_, k) => String(k)));
  return {
    rows, cols, values,
    rowLabels: labels(raw.rowLabels, rows), colLabels: labels(raw.colLabels, cols),
    rowTitle: raw.rowTitle ?? '', colTitle: raw.colTitle ?? '',
  };
}

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. */
export function csvField(value) {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvLines(rows) {
  return `${rows.map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/**
 * Entries rounded to what the computation can vouch for, for CSV: 12 significant digits, and 0
 * for an entry within 10⁻¹² of the matrix's largest magnitude (float64 carries about 16 digits,
 * and a few sums and products spend the last ones: −1.9999999999999998 is −2, 8.88e−16 next to
 * entries of size 1 is 0). JSON keeps every float64 exactly as the core returned it.
 */
const CSV_DIGITS = 12;
export function roundForCsv(values) {
  let scale = 0;
  for (const row of values) for (const v of row) if (v !== null) scale = Math.max(scale, Math.abs(v));
  return values.map((row) => row.map((v) => {
    if (v === null) return null;
    if (Math.abs(v) <= scale * 10 ** -CSV_DIGITS) return 0;
    return Number(v.toPrecision(CSV_DIGITS));
  }));
}

/**
 * A normalised matrix as CSV: a header row of column labels, then one row per matrix row led
 * by its label, entries rounded by roundForCsv.
 */
export function matrixToCsv(matrix) {
  const corner = matrix.rowTitle || matrix.colTitle ? `${matrix.rowTitle} \\ ${matrix.colTitle}`.trim() : '';
  const values = roundForCsv(matrix.values);
  return csvLines([[corner, ...matrix.colLabels], ...values.map((row, i) => [matrix.rowLabels[i], ...row])]);
}

/** JSON with two-space indents, but each array of plain values (a row of numbers) on one line. */
export function compactJson(value, indent = '') {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== 'object')) return JSON.stringify(value);
    return `[\n${value.map((v) => inner + compactJson(v, inner)).join(',\n')}\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (!entries.length) return '{}';
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${compactJson(v, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A normalised matrix as the JSON document of the Export menu. */
export function matrixToJson(matrix, { figure, name, settings }) {
  const document = {
    figure, name, rows: matrix.rows, cols: matrix.cols,
    rowTitle: matrix.rowTitle || undefined, colTitle: matrix.colTitle || undefined,
    rowLabels: matrix.rowLabels, colLabels: matrix.colLabels, values: matrix.values, settings,
  };
  return `${compactJson(document)}\n`;
}

/** Brings a getSeries result into { xLabel, yLabel, series: [{ name, x, y }] } with plain arrays, or null. */
export function normaliseSeries(raw) {
  if (!raw || !Array.isArray(raw.series)) return null;
  return {
    xLabel: raw.xLabel ?? 'x', yLabel: raw.yLabel ?? 'y',
    series: raw.series.map((s, k) => ({
      name: String(s.name ?? `series ${k}`), x: Array.from(s.x, cleanNumber), y: Array.from(s.y, cleanNumber),
    })),
  };
}

/**
 * Plot data as CSV. When every series shares the same x values: one column for x and one per
 * series; otherwise the long form, one line per point: series, x, y.
 */
export function seriesToCsv(data) {
  const first = data.series[0]?.x ?? [];
  const shared = data.series.every((s) => s.x.length === first.length && s.x.every((v, i) => v === first[i]));
  if (shared) {
    return csvLines([[data.xLabel, ...data.series.map((s) => s.name)], ...first.map((x, i) => [x, ...data.series.map((s) => s.y[i])])]);
  }
  return csvLines([['series', data.xLabel, data.yLabel], ...data.series.flatMap((s) => s.x.map((x, i) => [s.name, x, s.y[i]]))]);
}

export function seriesToJson(data, { figure, name, settings }) {
  return `${compactJson({ figure, name, xLabel: data.xLabel, yLabel: data.yLabel, series: data.series, settings })}\n`;
}

/** A file-name-safe slug: "head 0 of 4, weights" → "head-0-of-4-weights". */
export function slug(text) {
  const ascii = String(text).normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  return ascii.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'export';
}
