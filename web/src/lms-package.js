// Entry point of lms-package.js, loaded by the toolbar only when a reader asks for an LMS
// package (so the zip code is not part of every page): fetches embed.html and the files it
// loads from where the embeds are served, and zips them with the figure's settings into a
// SCORM 1.2 (or 2004) package (lib/lms/package.js).

import { packageFiles, scormPackage } from './lib/lms/package.js';

async function fetchBytes(base, name) {
  const response = await fetch(new URL(name, base));
  if (!response.ok) throw new Error(`${name} answered ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** { name, bytes } of the package; base is the folder of embed.html (a URL). */
export async function buildLmsPackage({ base, figureName, title, settings, page, version = 'scorm12' }) {
  const text = (bytes) => new TextDecoder().decode(bytes);
  const embedHtml = text(await fetchBytes(base, 'embed.html'));
  const names = await packageFiles({ embedHtml, figureName, readText: async (name) => text(await fetchBytes(base, name)) });
  const files = new Map(await Promise.all(names.map(async (name) => [name, await fetchBytes(base, name)])));
  return scormPackage({ figureName, title, settings, page, embedHtml, files, version });
}
