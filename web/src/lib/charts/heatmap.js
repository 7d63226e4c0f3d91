// An SVG heat map of a matrix: one square per entry, coloured on a colour-blind-safe
// sequential palette (viridis), with row and column labels, an optional highlighted row,
// keyboard navigation (one tab stop, arrow keys move between cells) and a visible readout
// of the cell under the pointer or focus. update() recolours the existing cells, so
// dragging a slider never rebuilds the DOM or loses keyboard focus, and it writes only the
// attributes and texts whose values changed. The map is drawn in CSS pixels for the width it
// is given (see fit.js): its text keeps its size on a phone and grows with the reader's text
// size; a map whose printed values do not fit the width scrolls sideways.

import { scaleLinear } from 'd3-scale';
import { interpolateViridis } from 'd3-scale-chromatic';
import { registerExportable } from '../export/registry.js';
import { formatFixed, formatWeightExact } from '../format/index.js';
import { htmlElement, svgElement, uniqueId } from '../dom/elements.js';
import { renameScrollRegion, scrollableWhenOverflowing } from '../dom/scroll-region.js';
import { inkFor } from './contrast.js';
import { DEFAULT_REM, fitChart } from './fit.js';
import {
  drawHeatmapLabels, estimateText, heatmapLayout, measureHeatmapText, placeHeatmapLabels,
} from './heatmap-labels.js';

/** Reads entry (i, j) from a { rows, cols, data } matrix or nested arrays; null/NaN = empty. */
function entry(matrix, i, j) {
  const value = Array.isArray(matrix) ? matrix[i][j] : matrix.data[i * matrix.cols + j];
  return value === null || value === undefined || Number.isNaN(value) ? null : value;
}

function shapeOf(matrix) {
  return Array.isArray(matrix) ? { rows: matrix.length, cols: matrix[0]?.length ?? 0 } : matrix;
}

const LEGEND_STOPS = 11;

// A printed value's ink, by contrast with its cell (light ink is the default style).
const INK_CLASSES = { dark: 'heatmap-value-on-light', black: 'heatmap-value-on-mid' };

/**
 * A colour bar of the palette with its two ends labelled, under a map: which colour is 0 and
 * which is 1 (or the map's own domain). Drawn in SVG, so no inline style is needed under the CSP.
 */
function drawLegend(wrapper, title, [low, high]) {
  const legend = htmlElement('div', { class: 'heatmap-legend' }, null, wrapper);
  htmlElement('span', { class: 'heatmap-legend-title' }, title, legend);
  const whole = Number.isInteger(low) && Number.isInteger(high);
  const formatLegendEnd = (v) => (whole ? String(v).replace('-', '\u2212') : formatFixed(v, 2));
  htmlElement('span', { class: 'heatmap-legend-end' }, formatLegendEnd(low), legend);
  const bar = svgElement('svg', { viewBox: '0 0 100 10', preserveAspectRatio: 'none', class: 'heatmap-legend-bar', 'aria-hidden': 'true' }, legend);
  const gradientId = uniqueId('heatmap-legend');
  const gradient = svgElement('linearGradient', { id: gradientId }, svgElement('defs', {}, bar));
  for (let i = 0; i < LEGEND_STOPS; i += 1) {
    const t = i / (LEGEND_STOPS - 1);
    svgElement('stop', { offset: `${t * 100}%`, 'stop-color': interpolateViridis(t) }, gradient);
  }
  svgElement('rect', { x: 0, y: 0, width: 100, height: 10, fill: `url(#${gradientId})` }, bar);
  htmlElement('span', { class: 'heatmap-legend-end' }, formatLegendEnd(high), legend);
  legend.setAttribute('aria-label', `colour legend: ${title} from ${formatLegendEnd(low)} (dark purple) to ${formatLegendEnd(high)} (yellow)`);
  legend.setAttribute('role', 'note');
}


/**
 * @param {HTMLElement} container
 * @param {object} options
 * @param {string[]} options.rowLabels
 * @param {string[]} options.colLabels
 * @param {string[]} [options.rowNames]     spoken names of rows (default: rowLabels), to tell
 * @param {string[]} [options.colNames]     apart repeated labels such as two "the"s
 * @param {string} options.label            accessible name of the whole grid
 * @param {string} [options.rowTitle]       axis title for rows, e.g. "query"
 * @param {string} [options.colTitle]       axis title for columns, e.g. "key"
 * @param {[number, number]} [options.domain]  value range mapped onto the palette
 * @param {(v: number) => string} [options.formatCell]   text printed inside a cell
 * @param {(v: number) => string} [options.formatExact]  text in names, tooltips, readout
 * @param {(row: number, col: number) => void} [options.onActivateCell]  click / Enter
 * @param {string} [options.pairJoiner]   text between the row and the column in a cell's name
 *                                        (default ", "; e.g. " \u2192 " for "query … → key …")
 * @param {string} [options.idleText]     readout text while no cell is pointed at or focused
 *                                        (default: an invitation to point at a cell; '' for none)
 * @param {{ title: string, name?: string, chars?: number }} [options.rowNotes]  a column of short
 *        texts right of the cells, one per row (e.g. each row's sum), filled by setRowNotes();
 *        `name` (default: title) joins each row's accessible name, `chars` is the widest text
 * @param {string} [options.emptyText]    what an empty (null) cell is called (default "masked (no weight)")
 * @param {string} [options.legend]       title of a colour legend under the map (e.g. "weight"):
 *        a bar of the palette from domain[0] to domain[1]; no legend when absent
 * @param {string} [options.exportName]   name in the figure's Export menu (default: label); every
 *        heat map registers itself there as a picture and as a matrix (see ../export/registry.js)
 */
export function createHeatmap(container, options) {
  const {
    rowLabels, colLabels, label, rowTitle = 'row', colTitle = 'column', domain = [0, 1],
    formatCell = (v) => formatFixed(v, 2), formatExact = formatWeightExact, onActivateCell = null,
    pairJoiner = ', ', idleText = 'Point at, tap or tab to a cell to read its exact value.',
    emptyText = 'masked (no weight)',
  } = options;
  const rowNames = options.rowNames ?? rowLabels;
  const colNames = options.colNames ?? colLabels;
  const rows = rowLabels.length;
  const cols = colLabels.length;

  const rowNotes = options.rowNotes ?? null;
  let current = null;
  let focused = { row: 0, col: 0 };
  let hovered = null;
  let highlightedRow = null;
  let focusShown = false;
  // What each cell shows now, so update() writes only what changed.
  const shown = Array.from({ length: rows * cols }, () => ({ name: null, fill: undefined, printed: '', ink: null }));

  const wrapper = htmlElement('div', { class: 'heatmap' }, null, container);
  const frame = htmlElement('div', { class: 'heatmap-frame' }, null, wrapper);
  const svg = svgElement('svg', {
    role: 'grid', 'aria-label': label, 'aria-rowcount': rows, 'aria-colcount': cols, class: 'heatmap-svg',
  }, frame);
  scrollableWhenOverflowing(frame, `${label}, scrolls sideways`);

  const labelNodes = drawHeatmapLabels(svg, { rowLabels, colLabels, rowTitle, colTitle, rowNotes });
  const { rowLabelNodes, noteNodes } = labelNodes;

  const cells = [];
  const cellTexts = [];
  const rowGroups = [];
  for (let i = 0; i < rows; i += 1) {
    const rowGroup = svgElement('g', {
      role: 'row', 'aria-rowindex': i + 1, 'aria-label': `${rowTitle} ${rowNames[i]}`, 'aria-selected': 'false',
    }, svg);
    rowGroups.push(rowGroup);
    for (let j = 0; j < cols; j += 1) {
      const cell = svgElement('rect', {
        role: 'gridcell', 'aria-colindex': j + 1, tabindex: -1, class: 'heatmap-cell',
        'data-row': i, 'data-col': j,
      }, rowGroup);
      svgElement('title', {}, cell);
      cells.push(cell);
    }
  }
  // Printed values sit in their own layer above the cells and ignore the pointer,
  // so hovering a number still hovers its cell.
  const valueLayer = svgElement('g', { 'aria-hidden': 'true', class: 'heatmap-values' }, svg);
  for (let i = 0; i < rows * cols; i += 1) {
    cellTexts.push(svgElement('text', { 'text-anchor': 'middle', 'dominant-baseline': 'central', class: 'heatmap-value' }, valueLayer));
  }
  const rowOutline = svgElement('rect', { class: 'heatmap-row-highlight', visibility: 'hidden', 'aria-hidden': 'true' }, svg);
  // Two nested outlines, dark and light, so the focused cell stands out on any palette colour.
  const focusRing = svgElement('g', { class: 'heatmap-focus-ring', visibility: 'hidden', 'aria-hidden': 'true' }, svg);
  const focusOuter = svgElement('rect', { x: 0, y: 0, class: 'heatmap-focus-outer' }, focusRing);
  const focusInner = svgElement('rect', { x: 2.5, y: 2.5, class: 'heatmap-focus-inner' }, focusRing);

  // The cell under the pointer gets an outline of its own, so the eye finds the cell the
  // readout below is talking about.
  const hoverRing = svgElement('rect', { class: 'heatmap-hover-ring', visibility: 'hidden', 'aria-hidden': 'true' }, svg);

  // ---- Layout: cell size and margins for the width the map is given -----------------------
  let valueChars = 4; // the longest printed value the layout has room for ("0.95")
  let text = estimateText({ rowLabels, colLabels, rowNotes, rem: DEFAULT_REM, valueChars });
  let layout = null;
  let fittedWidth = 0;
  const cellX = (j) => layout.left + j * layout.cell;
  const cellY = (i) => layout.top + i * layout.cell;

  function applyLayout(width) {
    const next = heatmapLayout({ rows, cols, hasNotes: Boolean(rowNotes), width, text: { ...text, valueChars } });
    fittedWidth = width;
    if (layout && ['left', 'top', 'cell', 'width', 'height', 'gap', 'label'].every((k) => next[k] === layout[k])) return;
    layout = next;
    const scrolls = layout.width > width;
    if (frame.classList.contains('heatmap-frame-scrolls') !== scrolls) frame.classList.toggle('heatmap-frame-scrolls', scrolls);
    const { cell } = layout;
    svg.setAttribute('viewBox', `0 0 ${layout.width} ${layout.height}`);
    svg.setAttribute('width', layout.width);
    svg.setAttribute('height', layout.height);
    placeHeatmapLabels(labelNodes, { rows, cols }, layout);
    for (let i = 0; i < rows; i += 1) {
      for (let j = 0; j < cols; j += 1) {
        const index = i * cols + j;
        const attributes = { x: cellX(j), y: cellY(i), width: cell, height: cell };
        for (const [name, value] of Object.entries(attributes)) cells[index].setAttribute(name, value);
        cellTexts[index].setAttribute('x', cellX(j) + cell / 2);
        cellTexts[index].setAttribute('y', cellY(i) + cell / 2);
      }
    }
    rowOutline.setAttribute('x', layout.left - 1);
    rowOutline.setAttribute('width', cols * cell + 2);
    rowOutline.setAttribute('height', cell);
    focusOuter.setAttribute('width', cell);
    focusOuter.setAttribute('height', cell);
    focusInner.setAttribute('width', cell - 5);
    focusInner.setAttribute('height', cell - 5);
    hoverRing.setAttribute('width', cell - 2);
    hoverRing.setAttribute('height', cell - 2);
    placeRings();
  }

  const start = fitChart(frame, {
    fallback: { width: Infinity, rem: DEFAULT_REM },
    memo: { container, signature: `heatmap ${rows}×${cols} ${rowLabels} ${colLabels} ${rowNotes?.title}` },
    measure: ({ width, rem }) => {
      const measured = measureHeatmapText(labelNodes, cellTexts[0], estimateText({ rowLabels, colLabels, rowNotes, rem, valueChars }));
      // The widest printed value, per character, at the size the page draws it.
      let digit = 0;
      for (const node of cellTexts) {
        const chars = node.textContent.length;
        if (chars) digit = Math.max(digit, node.getComputedTextLength() / chars);
      }
      return { width, text: digit ? { ...measured, digit } : measured };
    },
    apply: ({ width, text: measured }) => {
      text = measured;
      layout = null; // the text may have changed size: place everything again
      applyLayout(width);
    },
  });
  text = start.measured?.text ?? estimateText({ rowLabels, colLabels, rowNotes, rem: start.rem, valueChars });
  applyLayout(start.width);

  // The legend scrolls with its map (and stays the map's sibling, where readers of the DOM look).
  if (options.legend) drawLegend(frame, options.legend, domain);

  const readoutId = uniqueId('heatmap-readout');
  const readout = htmlElement('p', { class: 'heatmap-readout', id: readoutId }, null, wrapper);
  svg.setAttribute('aria-describedby', readoutId);


  /** Puts the focus ring, the hover ring and the row outline on their cells (writes only). */
  function placeRings() {
    if (!layout) return;
    if (focusShown) focusRing.setAttribute('transform', `translate(${cellX(focused.col)} ${cellY(focused.row)})`);
    if (hovered) {
      hoverRing.setAttribute('x', cellX(hovered.col) + 1);
      hoverRing.setAttribute('y', cellY(hovered.row) + 1);
    }
    if (highlightedRow !== null) rowOutline.setAttribute('y', cellY(highlightedRow));
  }

  function describe(i, j) {
    const value = current ? entry(current, i, j) : null;
    const shown = value === null ? emptyText : formatExact(value);
    return `${rowTitle} ${rowNames[i]}${pairJoiner}${colTitle} ${colNames[j]}: ${shown}`;
  }

  // The readout follows whichever the reader used last, the pointer or the keyboard.
  let lastInput = 'focus';
  function showReadout() {
    const focusInside = wrapper.contains(document.activeElement);
    const target = lastInput === 'focus' && focusInside ? focused : hovered ?? (focusInside ? focused : null);
    const said = target ? describe(target.row, target.col) : idleText;
    if (readout.textContent !== said) readout.textContent = said;
  }

  function setTabStop(i, j) {
    cells[focused.row * cols + focused.col].setAttribute('tabindex', '-1');
    focused = { row: i, col: j };
    const cell = cells[i * cols + j];
    cell.setAttribute('tabindex', '0');
    return cell;
  }

  function moveFocus(i, j) {
    const row = Math.min(rows - 1, Math.max(0, i));
    const col = Math.min(cols - 1, Math.max(0, j));
    setTabStop(row, col).focus();
  }

  svg.addEventListener('keydown', (event) => {
    const { row, col } = focused;
    const moves = {
      ArrowUp: [row - 1, col], ArrowDown: [row + 1, col], ArrowLeft: [row, col - 1], ArrowRight: [row, col + 1],
      Home: [row, 0], End: [row, cols - 1], PageUp: [0, col], PageDown: [rows - 1, col],
    };
    if (moves[event.key]) {
      event.preventDefault();
      moveFocus(...moves[event.key]);
    } else if ((event.key === 'Enter' || event.key === ' ') && onActivateCell) {
      event.preventDefault();
      onActivateCell(row, col);
    }
  });
  // Focus listeners go on the wrapper: Chromium makes an SVG element with focus listeners
  // a tab stop of its own, which would add a second stop before the cells.
  wrapper.addEventListener('focusin', (event) => {
    const cell = event.target.closest?.('.heatmap-cell');
    if (!cell) return;
    setTabStop(Number(cell.dataset.row), Number(cell.dataset.col));
    lastInput = 'focus';
    focusShown = true;
    placeRings();
    focusRing.setAttribute('visibility', 'visible');
    showReadout();
  });
  wrapper.addEventListener('focusout', () => {
    focusShown = false;
    focusRing.setAttribute('visibility', 'hidden');
    // Focus may be moving to another cell; read the readout after it lands.
    queueMicrotask(showReadout);
  });
  svg.addEventListener('pointerover', (event) => {
    const cell = event.target.closest?.('.heatmap-cell');
    if (!cell) return;
    hovered = { row: Number(cell.dataset.row), col: Number(cell.dataset.col) };
    lastInput = 'pointer';
    placeRings();
    hoverRing.setAttribute('visibility', 'visible');
    cells.forEach((c) => c.classList.remove('heatmap-cell-hovered'));
    cell.classList.add('heatmap-cell-hovered');
    showReadout();
  });
  svg.addEventListener('pointerleave', () => {
    hovered = null;
    hoverRing.setAttribute('visibility', 'hidden');
    cells.forEach((c) => c.classList.remove('heatmap-cell-hovered'));
    showReadout();
  });
  if (onActivateCell) {
    svg.classList.add('heatmap-activatable');
    svg.addEventListener('click', (event) => {
      const cell = event.target.closest?.('.heatmap-cell');
      if (cell) onActivateCell(Number(cell.dataset.row), Number(cell.dataset.col));
    });
  }

  // Value → position on the palette, 0…1; values outside the domain take its end colours.
  const toUnit = scaleLinear().domain(domain).clamp(true);

  const heatmap = {
    element: wrapper,

    /** Recolours every cell from a matrix of the same shape; null or NaN entries are drawn empty. */
    update(matrix) {
      const shape = shapeOf(matrix);
      if (shape.rows !== rows || shape.cols !== cols) {
        throw new Error(`heatmap: expected a ${rows}×${cols} matrix, got ${shape.rows}×${shape.cols}`);
      }
      current = matrix;
      let longest = valueChars;
      for (let i = 0; i < rows; i += 1) {
        for (let j = 0; j < cols; j += 1) {
          const index = i * cols + j;
          const value = entry(matrix, i, j);
          const name = describe(i, j);
          const fill = value === null ? null : interpolateViridis(toUnit(value));
          const printed = value === null ? '' : formatCell(value);
          // The ink with the better WCAG contrast on this fill (see contrast.js).
          const ink = fill === null ? null : inkFor(fill);
          const was = shown[index];
          if (was.name !== name) {
            cells[index].setAttribute('aria-label', name);
            cells[index].firstChild.textContent = name;
          }
          if (was.fill !== fill) {
            if (fill === null) cells[index].removeAttribute('fill');
            else cells[index].setAttribute('fill', fill);
            if ((was.fill === null) !== (fill === null)) cells[index].classList.toggle('heatmap-cell-empty', fill === null);
          }
          if (was.printed !== printed) cellTexts[index].textContent = printed;
          if (was.ink !== ink) {
            if (was.ink && was.ink !== 'light') cellTexts[index].classList.remove(INK_CLASSES[was.ink]);
            if (ink && ink !== 'light') cellTexts[index].classList.add(INK_CLASSES[ink]);
          }
          shown[index] = { name, fill, printed, ink };
          longest = Math.max(longest, printed.length);
        }
      }
      // A value longer than the cells were sized for: size them again (no layout is read).
      if (longest > valueChars) {
        valueChars = longest;
        applyLayout(fittedWidth);
      }
      showReadout();
    },

    /** Fills the row-notes column (needs options.rowNotes); each text also joins its row's name. */
    setRowNotes(texts) {
      if (!rowNotes) throw new Error('heatmap: setRowNotes needs the rowNotes option');
      if (texts.length !== rows) throw new Error(`heatmap: expected ${rows} row notes, got ${texts.length}`);
      texts.forEach((text, i) => {
        noteNodes[i].textContent = text;
        rowGroups[i].setAttribute('aria-label', `${rowTitle} ${rowNames[i]}, ${rowNotes.name ?? rowNotes.title} ${text}`);
      });
    },

    /**
     * Renames the whole grid (its accessible name, and its name in the Export menu unless
     * options.exportName fixed one): a figure that shows another matrix of the same shape in
     * the same map, such as another head, relabels it instead of drawing a new one.
     */
    setLabel(text) {
      svg.setAttribute('aria-label', text);
      renameScrollRegion(frame, `${text}, scrolls sideways`);
      if (options.exportName === undefined) exported.name = text;
    },

    /** Outlines one row (null for none) and marks it selected for assistive technology. */
    highlightRow(index) {
      if (highlightedRow !== null) {
        rowGroups[highlightedRow].setAttribute('aria-selected', 'false');
        rowLabelNodes[highlightedRow].classList.remove('heatmap-row-label-current');
      }
      highlightedRow = index;
      if (index === null) {
        rowOutline.setAttribute('visibility', 'hidden');
        return;
      }
      rowGroups[index].setAttribute('aria-selected', 'true');
      rowLabelNodes[index].classList.add('heatmap-row-label-current');
      placeRings();
      rowOutline.setAttribute('visibility', 'visible');
      // Keep the single tab stop on the highlighted row, unless the user is inside the grid.
      if (!wrapper.contains(document.activeElement)) setTabStop(index, focused.col);
    },
  };
  setTabStop(0, 0);
  showReadout();
  const exported = {
    kind: 'heatmap', name: options.exportName ?? label, svg,
    // The values currently shown, as nested arrays (null = an empty cell), with the labels.
    getMatrix: () => (current ? {
      rowLabels: [...rowLabels], colLabels: [...colLabels], rowTitle, colTitle,
      values: Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => entry(current, i, j))),
    } : null),
  };
  registerExportable(wrapper, exported);
  return heatmap;
}
