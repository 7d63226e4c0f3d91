// What a copy of a figure shows where scripts cannot run (a sandbox="" frame, a no-script
// viewer, JavaScript off, an upload area whose policy refuses inline scripts): a picture of
// the figure as it is drawn now, from the core's numbers (its heat maps and plots, stacked
// into one SVG), and a caption with its settings and a link to the full page. The one-file
// export puts it inside its <attention-figure>: the element, once its script runs, shows
// its shadow root instead, so the picture appears only where the figure cannot.

import { escapeAttribute } from '../share/links.js';
import { chartPicture } from './picture.js';
import { listExportables } from './registry.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const MAX_CHARTS = 4;
const GAP = 12;

const escapeText = (text) => String(text).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * The figure's charts as drawn now, stacked in one standalone SVG: { text, width, height,
 * names } or null when it draws none (a figure made of text and fields, as check-yourself).
 */
export function figurePicture(figureElement) {
  const charts = listExportables(figureElement).pictures.slice(0, MAX_CHARTS);
  if (!charts.length) return null;
  const parts = charts.map((item) => ({ name: item.name, ...chartPicture(item) }));
  const width = Math.max(...parts.map((p) => p.width));
  const height = parts.reduce((sum, p) => sum + p.height, 0) + GAP * (parts.length - 1);
  let top = 0;
  const nested = parts.map((part) => {
    // Each chart's own SVG, placed by x/y on its nested <svg> element.
    const inner = part.text.replace(/^<\?xml[^>]*\?>\s*/, '').replace(/^<svg\b/, `<svg x="0" y="${Math.round(top * 100) / 100}"`);
    top += part.height + GAP;
    return inner;
  });
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="${SVG_NS}" version="1.1" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">\n${nested.join('\n')}\n</svg>\n`;
  return { text, width, height, names: parts.map((p) => p.name) };
}

/** "τ = 0.5, query = 2" style: the settings as name = value, or null when there are none. */
export function settingsText(settings) {
  const pairs = Object.entries(settings).map(([name, value]) => `${name} = ${value}`);
  return pairs.length ? pairs.join(', ') : null;
}

/**
 * The fallback's HTML: a <figure> with the picture (if any) as an <img> with a data: URL
 * (allowed by img-src data:, and an SVG image's own styles are its own) and a caption with
 * the title, the settings and the link (href, or null). No style attribute, no script.
 */
export function fallbackHtml({ picture, title, settings, href }) {
  const shown = settingsText(settings);
  const lines = ['<figure class="attention-lab-picture">'];
  if (picture) {
    const alt = `A picture of the figure as drawn at these settings: ${picture.names.join('; ')}.`;
    const src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(picture.text)}`;
    // width="100%" (a presentational hint, not a style attribute): the picture scales to a
    // phone's width and keeps its proportions, with no stylesheet to ask for it.
    lines.push(`<img src="${escapeAttribute(src)}" alt="${escapeAttribute(alt)}" width="100%">`);
  }
  const caption = [`<strong>${escapeText(title)}</strong>`,
    shown ? `Settings: ${escapeText(shown)}.` : 'At its default settings.',
    'Scripts cannot run here, so this is a picture of the figure.'];
  if (href) caption.push(`<a href="${escapeAttribute(href)}">Open the interactive figure</a>.`);
  lines.push(`<figcaption>${caption.join(' ')}</figcaption>`, '</figure>');
  return lines.join('\n');
}
