// attention-lab-resize.js: grows each Attention Lab iframe on a host page to fit its figure.
// Include it once, from a file (so a host whose Content-Security-Policy forbids inline scripts
// can still run it), anywhere on the page:
//
//   <script src="attention-lab-resize.js" data-allowed-origin="https://example.org" defer></script>
//   <iframe src="https://example.org/attention-lab/embed.html?figure=temperature" data-attention-lab …>
//
// Each frame (an <iframe data-attention-lab>) posts { type: 'attention-lab:height', height }
// whenever its content changes height, and when this script, starting, asks each frame that is
// already there ({ type: 'attention-lab:measure' }), so the script may load before or after
// the frames. A message is used only if
//   - it comes from the window of one of those frames (not from any other frame or window),
//   - from an allowed origin: the origins listed, space-separated, in data-allowed-origin on
//     this script tag; without that attribute, the origin of the frame's own src,
//   - and its height is a number of pixels above 0 and below 20000: a JavaScript number (not a
//     string such as "500", not true or [654]), finite, 0 < height < 20000, so 19999.9 is
//     taken and 20000 is not. The frame gets that height rounded up to a whole pixel.
// Nothing else on the page is changed; the script sets only each frame's style.height.
//
// A frame whose src asks for theme=host (embed.html?figure=…&theme=host) is told this page's
// colour scheme, { type: 'attention-lab:scheme', scheme: 'light' | 'dark' }, posted to that
// frame's own origin only: when the frame says hello (it has loaded and listens) and again
// whenever the scheme changes (an attribute of <html> or <body> changes, or the reader's
// preference does). The scheme is read, in this order:
//   - data-theme-from="ATTRIBUTE" on this script tag: that attribute of <html> (else <body>),
//     e.g. data-theme="dark"; a value containing "dark" is dark, one containing "light" light;
//   - data-theme-from="class:NAME": dark while <html> or <body> has class NAME, else light;
//   - the computed color-scheme of the frame's parent element (set on :root, it is inherited),
//     or <meta name="color-scheme">, when it names exactly one of light and dark;
//   - else the reader's preference (prefers-color-scheme).
// Pasted into an inline <script> (a host that allows inline scripts but not files), it works
// the same, reading data-allowed-origin and data-theme-from from that script element.
(function () {
  'use strict';
  var MAX_HEIGHT = 20000;
  var script = document.currentScript;
  var listed = script ? (script.getAttribute('data-allowed-origin') || '').split(/\s+/).filter(Boolean) : [];

  function originOf(frame) {
    try {
      return new URL(frame.getAttribute('src') || '', document.baseURI).origin;
    } catch (error) {
      return null;
    }
  }

  function allowed(frame, origin) {
    return listed.length > 0 ? listed.indexOf(origin) >= 0 : origin === originOf(frame);
  }

  var themeFrom = script ? script.getAttribute('data-theme-from') || '' : '';
  var darkQuery = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  // frame → the scheme last posted. Only a frame that has spoken (hello, or its height) is told
  // of later changes: one still loading has another origin, and a post to it would be refused.
  var told = new WeakMap();

  function frames() {
    return document.querySelectorAll('iframe[data-attention-lab]');
  }

  function asksForHostTheme(frame) {
    try {
      return new URL(frame.getAttribute('src') || '', document.baseURI).searchParams.get('theme') === 'host';
    } catch (error) {
      return false;
    }
  }

  // The scheme the author's own switch names: 'light', 'dark', or null when it names none.
  function namedScheme() {
    var places = [document.documentElement, document.body];
    var toggle = /^class:(.+)$/.exec(themeFrom);
    var i;
    if (toggle) {
      for (i = 0; i < places.length; i += 1) if (places[i] && places[i].classList.contains(toggle[1])) return 'dark';
      return 'light';
    }
    if (!themeFrom) return null;
    for (i = 0; i < places.length; i += 1) {
      var value = places[i] ? places[i].getAttribute(themeFrom) : null;
      if (value && /dark/i.test(value)) return 'dark';
      if (value && /light/i.test(value)) return 'light';
    }
    return null;
  }

  function schemeFor(frame) {
    var named = namedScheme();
    if (named) return named;
    var host = getComputedStyle(frame.parentElement || document.documentElement).colorScheme || 'normal';
    if (host === 'normal') {
      var meta = document.querySelector('meta[name="color-scheme"]');
      if (meta) host = meta.getAttribute('content') || host;
    }
    var words = host.split(/[\s,]+/);
    var light = words.indexOf('light') >= 0;
    var dark = words.indexOf('dark') >= 0;
    if (light !== dark) return dark ? 'dark' : 'light';
    return darkQuery && darkQuery.matches ? 'dark' : 'light';
  }

  // Tells `frame` the scheme if it asks for theme=host and (unless `always`) the scheme changed.
  function tellScheme(frame, always) {
    if (!asksForHostTheme(frame) || !frame.contentWindow) return;
    var origin = originOf(frame);
    if (!origin || origin === 'null') return;
    var scheme = schemeFor(frame);
    if (!always && (!told.has(frame) || told.get(frame) === scheme)) return;
    told.set(frame, scheme);
    frame.contentWindow.postMessage({ type: 'attention-lab:scheme', scheme: scheme }, origin);
  }

  function tellAll() {
    var all = frames();
    for (var i = 0; i < all.length; i += 1) tellScheme(all[i], false);
  }

  if (typeof MutationObserver === 'function') {
    var watch = new MutationObserver(tellAll);
    watch.observe(document.documentElement, { attributes: true });
    var watchBody = function () { if (document.body) watch.observe(document.body, { attributes: true }); };
    if (document.body) watchBody();
    else document.addEventListener('DOMContentLoaded', watchBody);
  }
  if (darkQuery && darkQuery.addEventListener) darkQuery.addEventListener('change', tellAll);

  window.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || typeof data !== 'object') return;
    if (data.type === 'attention-lab:hello') {
      var all = frames();
      for (var j = 0; j < all.length; j += 1) {
        if (all[j].contentWindow === event.source && allowed(all[j], event.origin)) tellScheme(all[j], true);
      }
      return;
    }
    if (data.type !== 'attention-lab:height') return;
    var height = data.height;
    if (typeof height !== 'number' || !isFinite(height) || !(height > 0 && height < MAX_HEIGHT)) return;
    var each = frames();
    for (var i = 0; i < each.length; i += 1) {
      if (each[i].contentWindow === event.source && allowed(each[i], event.origin)) {
        each[i].style.height = Math.ceil(height) + 'px';
        // A frame whose hello came before this script listened is told on its first height.
        if (!told.has(each[i])) tellScheme(each[i], true);
      }
    }
  });

  // A frame that reported its height before this script listened is asked again. The request
  // carries nothing, so it may go to any origin: a frame still loading drops it, and reports
  // by itself once it starts.
  var waiting = frames();
  for (var k = 0; k < waiting.length; k += 1) {
    if (waiting[k].contentWindow) waiting[k].contentWindow.postMessage({ type: 'attention-lab:measure' }, '*');
  }
})();
