// The Embed code panel's LMS block: this figure at its current settings as a SCORM 1.2 (or 2004)
// zip, built in the browser from the figure's own files. The code that zips (lms-package.js,
// beside embed.html) loads only when a button is pressed.
//
//   lmsPackageBlock(panel, { filesBase, say, figureName, title, settings, page }) → the block
//
// filesBase(): where this figure's files are served (a URL), or null when it was not served from
// a web address; say(text): the toolbar's status line; settings(): the figure's attributes;
// page(): the full page's address for the package's links, or null.

import { htmlElement } from '../dom/elements.js';
import { downloadFile } from '../export/download.js';

export function lmsPackageBlock(panel, { filesBase, say, figureName, title, settings, page }) {
  const block = htmlElement('div', { class: 'figure-snippet figure-lms' }, null, panel);
  htmlElement('p', { class: 'figure-snippet-label' }, 'As an LMS package, for a course that imports SCORM', block);
  const buttons = htmlElement('p', { class: 'figure-lms-buttons' }, null, block);
  htmlElement('p', { class: 'figure-tool-note' },
    'A zip to upload as a SCORM activity: the LMS records completion, and for a figure that grades answers, the score.', block);
  const packageButton = (text, version, label) => {
    const button = htmlElement('button', { type: 'button', class: 'figure-tool' }, text, buttons);
    button.addEventListener('click', async () => {
      const base = filesBase();
      if (!base) {
        say('This copy of the figure was not served from a web address, so it cannot gather the files of a package.');
        return;
      }
      button.disabled = true;
      say('Building the LMS package\u2026');
      try {
        const { buildLmsPackage } = await import(/* a run-time file, not bundled */ new URL('lms-package.js', base).href);
        const { name, bytes } = await buildLmsPackage({
          base: base.href, figureName, title, settings: settings(), version, page: page(),
        });
        downloadFile(name, bytes, 'application/zip');
        say(`Saved ${name} (${Math.round(bytes.length / 1024)} KiB): upload it to your LMS as a ${label} package.`);
      } catch (error) {
        say(`The LMS package could not be built: ${error.message}`);
      } finally {
        button.disabled = false;
      }
    });
  };
  packageButton('LMS package (SCORM 1.2)', 'scorm12', 'SCORM 1.2');
  packageButton('SCORM 2004', 'scorm2004', 'SCORM 2004');
  return block;
}
