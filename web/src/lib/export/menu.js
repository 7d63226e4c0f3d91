// The Export menu of a figure's toolbar: one row per picture (SVG, PNG and, for a heat map
// its matrix, for a plot its series, as CSV and JSON) and one per extra matrix the figure
// registered (CSV, JSON). The list is built when the menu opens, from what is on screen.

import { htmlElement } from '../dom/elements.js';
import { downloadFile } from './download.js';
import {
  matrixToCsv, matrixToJson, normaliseMatrix, normaliseSeries, seriesToCsv, seriesToJson, slug,
} from './files.js';
import { chartPicture, svgToPng } from './picture.js';
import { listExportables } from './registry.js';

/**
 * Fills `list` (a <ul>) with the figure's exports; returns build(), which rebuilds it.
 * say(text) announces each result; settings() gives the figure's current settings;
 * standalone() (optional) makes the whole figure as one HTML file ({ name, text }).
 */
export function exportMenu(list, { figureElement, figureName, settings, say, standalone = null }) {
  const fileName = (name, ext) => `${figureName}-${slug(name)}.${ext}`;
  const meta = (name) => ({ figure: figureName, name, settings: settings() });

  async function run(label, action) {
    try {
      const saved = await action();
      say(`Saved ${saved}.`);
    } catch (error) {
      say(`Could not export ${label}: ${error.message}`);
    }
  }

  const picture = chartPicture;
  // A matrix or a plot's series as a text file: `read` gets it from the item, `format` writes it
  // (the JSON formats also take the figure's name and settings).
  const dataFile = (read, format, extension, type, what) => (item) => run(item.name, async () => {
    const data = read(item);
    if (!data) throw new Error(`it has no ${what} yet`);
    const name = fileName(item.name, extension);
    downloadFile(name, format(data, meta(item.name)), type);
    return name;
  });
  const actions = {
    svg: (item) => run(item.name, async () => {
      const { text } = picture(item);
      const name = fileName(item.name, 'svg');
      downloadFile(name, text, 'image/svg+xml');
      return name;
    }),
    png: (item) => run(item.name, async () => {
      const { text, width, height } = picture(item);
      const name = fileName(item.name, 'png');
      downloadFile(name, await svgToPng(text, width, height, 2), 'image/png');
      return name;
    }),
    matrixCsv: dataFile((item) => normaliseMatrix(item.getMatrix()), matrixToCsv, 'csv', 'text/csv;charset=utf-8', 'values'),
    matrixJson: dataFile((item) => normaliseMatrix(item.getMatrix()), matrixToJson, 'json', 'application/json', 'values'),
    seriesCsv: dataFile((item) => normaliseSeries(item.getSeries()), seriesToCsv, 'csv', 'text/csv;charset=utf-8', 'data'),
    seriesJson: dataFile((item) => normaliseSeries(item.getSeries()), seriesToJson, 'json', 'application/json', 'data'),
  };

  // whole: the row for the whole figure (not a picture or matrix of it), styled apart.
  function addRow(name, kindText, formats, { whole = false } = {}) {
    const item = htmlElement('li', { class: whole ? 'figure-export-item figure-export-whole' : 'figure-export-item' }, null, list);
    const label = htmlElement('span', { class: whole ? 'figure-export-whole-name' : 'figure-export-name' }, null, item);
    label.append(name);
    htmlElement('span', { class: 'figure-export-kind' }, ` (${kindText})`, label);
    const row = htmlElement('span', { class: 'figure-export-formats' }, null, item);
    for (const [format, action] of formats) {
      const button = htmlElement('button', {
        type: 'button', class: 'figure-tool figure-tool-small', 'aria-label': `Download ${name} as ${format}`,
      }, format, row);
      button.addEventListener('click', action);
    }
  }

  return function build() {
    list.replaceChildren();
    const { pictures, matrices } = listExportables(figureElement);
    const pictureMatrices = new Set(pictures.filter((p) => p.getMatrix).map((p) => p.name));
    for (const item of pictures) {
      const formats = [['SVG', () => actions.svg(item)], ['PNG', () => actions.png(item)]];
      if (item.kind === 'heatmap' && item.getMatrix) {
        formats.push(['CSV', () => actions.matrixCsv(item)], ['JSON', () => actions.matrixJson(item)]);
      } else if (item.getSeries) {
        formats.push(['CSV', () => actions.seriesCsv(item)], ['JSON', () => actions.seriesJson(item)]);
      }
      addRow(item.name, item.kind === 'heatmap' ? 'heat map' : 'plot', formats);
    }
    for (const matrix of matrices) {
      if (pictureMatrices.has(matrix.name)) continue;
      addRow(matrix.name, 'matrix', [['CSV', () => actions.matrixCsv(matrix)], ['JSON', () => actions.matrixJson(matrix)]]);
    }
    if (!list.children.length) htmlElement('li', { class: 'figure-tool-note' }, 'This figure has no pictures or matrices to export.', list);
    if (standalone) {
      addRow('the whole figure', 'one HTML file at these settings, opens offline', [['HTML', () => run('the figure', async () => {
        const { name, text } = await standalone();
        downloadFile(name, text, 'text/html;charset=utf-8');
        return name;
      })]], { whole: true });
    }
  };
}
