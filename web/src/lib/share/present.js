// The toolbar's "Present" button: shows its figure on its own, full screen, in the slide
// layout (text readable from the back of a room, controls beside the chart; see the
// [data-al-layout="slide"] rules in styles.css), for a teacher projecting the page.
//
// The figure itself goes full screen (requestFullscreen) with data-al-layout="slide" set on it.
// Where the browser refuses (an iframe without allow="fullscreen", a headless browser, a
// platform without the API), the figure covers the window instead (a fixed overlay), which
// reads the same. Escape, the browser's own exit from full screen, or the button (now "Exit
// presentation") returns to the page layout and gives focus back to the button.
//
//   presentButton(figureElement, buttonsRow, { lifetime })  ->  the button

import { htmlElement } from '../dom/elements.js';

const PRESENT = 'Present';
const EXIT = 'Exit presentation';

/** The element in full screen as the figure's own tree sees it (through a shadow root). */
function fullscreenElementOf(node) {
  const root = node.getRootNode();
  return (root.fullscreenElement ?? document.fullscreenElement) || null;
}

export function presentButton(figureElement, buttonsRow, { lifetime } = {}) {
  const button = htmlElement('button', {
    type: 'button', class: 'figure-tool figure-present', 'aria-pressed': 'false',
  }, PRESENT, buttonsRow);
  let presenting = null; // 'fullscreen' | 'overlay' | null
  let hadLayout = null; // the figure's own data-al-layout before presenting

  // Escape ends the overlay (in full screen the browser takes Escape itself). A disclosure
  // panel that Escape closes first says so with preventDefault. Listened to only while the
  // figure is presented: every key press on the page would otherwise call one such listener
  // per figure.
  const onKey = (event) => {
    if (event.key !== 'Escape' || !presenting || event.defaultPrevented) return;
    event.preventDefault();
    end();
  };

  function begin(mode) {
    presenting = mode;
    document.addEventListener('keydown', onKey);
    hadLayout = figureElement.getAttribute('data-al-layout');
    figureElement.setAttribute('data-al-layout', 'slide');
    figureElement.setAttribute('data-al-presenting', mode);
    // The lesson's section around it stays rendered (styles/page.css).
    figureElement.closest('section')?.setAttribute('data-al-presenting-inside', '');
    button.textContent = EXIT;
    button.setAttribute('aria-pressed', 'true');
  }

  function end({ focus = true } = {}) {
    if (!presenting) return;
    const mode = presenting;
    presenting = null;
    document.removeEventListener('keydown', onKey);
    if (hadLayout === null) figureElement.removeAttribute('data-al-layout');
    else figureElement.setAttribute('data-al-layout', hadLayout);
    figureElement.removeAttribute('data-al-presenting');
    figureElement.closest('section')?.removeAttribute('data-al-presenting-inside');
    button.textContent = PRESENT;
    button.setAttribute('aria-pressed', 'false');
    if (mode === 'fullscreen' && fullscreenElementOf(figureElement) === figureElement) {
      document.exitFullscreen?.().catch(() => {});
    }
    if (focus) {
      button.focus();
      // Back on the page where the reader left it: the figure, not the top of the document.
      figureElement.scrollIntoView?.({ block: 'nearest' });
    }
  }

  async function start() {
    begin('fullscreen');
    try {
      if (typeof figureElement.requestFullscreen !== 'function') throw new Error('no Fullscreen API');
      await figureElement.requestFullscreen({ navigationUI: 'hide' });
      if (fullscreenElementOf(figureElement) !== figureElement) throw new Error('full screen not granted');
    } catch {
      // Refused: the figure covers the window instead.
      if (presenting) figureElement.setAttribute('data-al-presenting', 'overlay');
      if (presenting) presenting = 'overlay';
    }
    button.focus();
  }

  button.addEventListener('click', () => {
    if (presenting) end();
    else start();
  });

  const signal = lifetime?.signal;
  // Leaving full screen by the browser's own means (Escape, F11, a gesture).
  document.addEventListener('fullscreenchange', () => {
    if (presenting === 'fullscreen' && fullscreenElementOf(figureElement) !== figureElement) end();
  }, { signal });
  lifetime?.add(() => end({ focus: false }));
  return button;
}
