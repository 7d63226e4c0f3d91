// attention-lab-resize.js: grows each Attention Lab iframe on a host page to fit its figure.
// Include it once, from a file (so a host whose Content-Security-Policy forbids inline scripts
// can still run it), anywhere on the page:
//
//   <script src="attention-lab-resize.js" data-allowed-origin="https://example.org" defer></script>
//   <iframe src="https://example.org/attention-lab/embed.html?figure=temperature" data-attention-lab …>
//
// Each frame (an <iframe data-attention-lab>) posts { type: 'attention-lab:height', height }
// whenever its content changes height. A message is used only if
//   - it comes from the window of one of those frames (not from any other frame or window),
//   - from an allowed origin: the origins listed, space-separated, in data-allowed-origin on
//     this script tag; without that attribute, the origin of the frame's own src,
//   - and its height is a number of pixels above 0 and below 20000: a JavaScript number (not a
//     string such as "500", not true or [654]), finite, 0 < height < 20000, so 19999.9 is
//     taken and 20000 is not. The frame gets that height rounded up to a whole pixel.
// Nothing else on the page is read or changed; the script sets only each frame's style.height.
// Pasted into an inline <script> (a host that allows inline scripts but not files), it works
// the same, reading data-allowed-origin from that script element.
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

  window.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || typeof data !== 'object' || data.type !== 'attention-lab:height') return;
    var height = data.height;
    if (typeof height !== 'number' || !isFinite(height) || !(height > 0 && height < MAX_HEIGHT)) return;
    var frames = document.querySelectorAll('iframe[data-attention-lab]');
    for (var i = 0; i < frames.length; i += 1) {
      if (frames[i].contentWindow === event.source && allowed(frames[i], event.origin)) {
        frames[i].style.height = Math.ceil(height) + 'px';
      }
    }
  });
})();
