// The heat map as a grid for the keyboard and for screen readers: each cell's name ("query
// it, key cat: 0.4210") as its accessible name (and, for the pointer, in the readout), one tab stop that arrow keys,
// Home/End and PageUp/PageDown move between cells, Enter or Space (and a click) to activate a
// cell, the selected row, and a visible readout of the cell under the pointer or focus that
// the grid is described by. It works on any painter's row and cell elements (see cells.js).

import { htmlElement, uniqueId, setText } from '../../dom/elements.js';
import { CELL_CLASS } from './cells.js';
import { afterNextPaint } from '../../dom/yield.js';

/** Where a key moves the focus from { row, col }, as [row, col] (clamped later), or undefined. */
function moveFor(key, { row, col }, { rows, cols }) {
  return {
    ArrowUp: [row - 1, col], ArrowDown: [row + 1, col], ArrowLeft: [row, col - 1], ArrowRight: [row, col + 1],
    Home: [row, 0], End: [row, cols - 1], PageUp: [0, col], PageDown: [rows - 1, col],
  }[key];
}

/** The cell under an event's target, with its row and column, or null off the cells. */
function cellOf(target) {
  const cell = target.closest?.(`.${CELL_CLASS}`);
  return cell ? { cell, row: Number(cell.dataset.row), col: Number(cell.dataset.col) } : null;
}

/** Marks the cell under the pointer (heatmap-cell-hovered) and tells onHover({ row, col }, or null off the grid). */
function followPointer(svg, cells, onHover) {
  const unmark = () => cells.forEach((c) => c.classList.remove('heatmap-cell-hovered'));
  svg.addEventListener('pointerover', (event) => {
    const at = cellOf(event.target);
    if (!at) return;
    unmark();
    at.cell.classList.add('heatmap-cell-hovered');
    onHover({ row: at.row, col: at.col });
  });
  svg.addEventListener('pointerleave', () => {
    unmark();
    onHover(null);
  });
}

/** Names every cell by describe(i, j) as its accessible name, writing only the names that changed. */
function nameCells(cells, names, { rows, cols, describe }) {
  for (let i = 0; i < rows; i += 1) {
    for (let j = 0; j < cols; j += 1) {
      const index = i * cols + j;
      const name = describe(i, j);
      if (names[index] === name) continue;
      cells[index].setAttribute('aria-label', name);
      names[index] = name;
    }
  }
}

/**
 * @param {object} parts
 * @param {HTMLElement} parts.wrapper   the map's outer element: focus listeners go here
 * @param {SVGElement} parts.svg        the grid element (role="grid")
 * @param {{ rows: Element[], cells: Element[] }} parts.painter
 * @param {ReturnType<import('./marks.js').createMarks>} parts.marks
 * @param {object} options  rows, cols, describe(i, j) (a cell's name), idleText, onActivateCell
 */
export function createGrid({ wrapper, svg, painter, marks }, { rows, cols, describe, idleText, onActivateCell }) {
  const { cells } = painter;
  const names = new Array(rows * cols).fill(null);
  let focused = { row: 0, col: 0 };
  let hovered = null;
  // The readout follows whichever the reader used last, the pointer or the keyboard.
  let lastInput = 'focus';
  let renaming = null; // cancels the names waiting for the next paint (renameCells)

  const readoutId = uniqueId('heatmap-readout');
  const readout = htmlElement('p', { class: 'heatmap-readout', id: readoutId }, null, wrapper);
  svg.setAttribute('aria-describedby', readoutId);

  /** Writes the cells' names now, and drops any waiting for the next paint (renameCells). */
  function nameNow() {
    renaming?.();
    renaming = null;
    nameCells(cells, names, { rows, cols, describe });
  }

  function showReadout() {
    const focusInside = wrapper.contains(document.activeElement);
    const target = lastInput === 'focus' && focusInside ? focused : hovered ?? (focusInside ? focused : null);
    const said = target ? describe(target.row, target.col) : idleText;
    setText(readout, said);
  }

  function setTabStop(i, j) {
    cells[focused.row * cols + focused.col].setAttribute('tabindex', '-1');
    focused = { row: i, col: j };
    const cell = cells[i * cols + j];
    cell.setAttribute('tabindex', '0');
    return cell;
  }

  function moveFocus(i, j) {
    setTabStop(Math.min(rows - 1, Math.max(0, i)), Math.min(cols - 1, Math.max(0, j))).focus();
  }

  svg.addEventListener('keydown', (event) => {
    const move = moveFor(event.key, focused, { rows, cols });
    if (move) {
      event.preventDefault();
      moveFocus(...move);
    } else if ((event.key === 'Enter' || event.key === ' ') && onActivateCell) {
      event.preventDefault();
      onActivateCell(focused.row, focused.col);
    }
  });
  // Focus listeners go on the wrapper: Chromium makes an SVG element with focus listeners
  // a tab stop of its own, which would add a second stop before the cells.
  wrapper.addEventListener('focusin', (event) => {
    const at = cellOf(event.target);
    if (!at) return;
    if (renaming) nameNow(); // a reader arriving in the grid hears the current names
    setTabStop(at.row, at.col);
    lastInput = 'focus';
    marks.focusAt(focused);
    showReadout();
  });
  wrapper.addEventListener('focusout', () => {
    marks.focusAt(null);
    // Focus may be moving to another cell; read the readout after it lands.
    queueMicrotask(showReadout);
  });
  followPointer(svg, cells, (at) => {
    hovered = at;
    if (at) lastInput = 'pointer';
    marks.hoverAt(hovered);
    showReadout();
  });
  if (onActivateCell) {
    svg.classList.add('heatmap-activatable');
    svg.addEventListener('click', (event) => {
      const at = cellOf(event.target);
      if (at) onActivateCell(at.row, at.col);
    });
  }

  painter.rows.forEach((row) => row.setAttribute('aria-selected', 'false'));
  setTabStop(0, 0);
  showReadout();

  return {
    showReadout,

    /**
     * Names every cell again (after new values), writing only the names that changed. The
     * first names, and new names while the focus is in the grid, are written at once; other
     * new names after the frame that shows the new colours: a τ step renames most of 64 cells,
     * about 0.2 ms that would otherwise hold up the key press's pixels. The readout under the
     * map is written at once either way (showReadout).
     */
    renameCells() {
      if (names[0] === null || wrapper.contains(document.activeElement)) nameNow();
      else renaming ??= afterNextPaint(nameNow, wrapper);
    },

    /** Names a row for assistive technology. */
    nameRow(i, name) {
      painter.rows[i].setAttribute('aria-label', name);
    },

    /** Marks one row selected (null for none); the single tab stop moves there unless focus is inside. */
    selectRow(previous, index) {
      if (previous !== null) painter.rows[previous].setAttribute('aria-selected', 'false');
      if (index === null) return;
      painter.rows[index].setAttribute('aria-selected', 'true');
      if (!wrapper.contains(document.activeElement)) setTabStop(index, focused.col);
    },
  };
}
