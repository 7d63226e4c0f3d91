// Text printed on a coloured fill (a heat-map cell) takes the ink that reads best on that
// fill, by the WCAG 2.x contrast ratio, not by where the fill sits on the palette. Viridis's
// teal middle is the hard case: white reaches only 3.1:1 there and the page's dark ink 4.2:1,
// so such fills get pure black, which reaches 4.6:1 or more on every viridis colour.

export const MIN_CONTRAST = 4.5; // WCAG AA for text under 18.66 px bold / 24 px

// The inks, as styles.css draws them (--al-on-dark, --al-on-light, --al-on-mid).
export const INKS = {
  light: '#ffffff',
  dark: '#1d1f24',
  black: '#000000',
};

function channel(c) {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

/** The [r, g, b] channels (0…255) of a colour written '#rrggbb'. */
export function hexChannels(hex) {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
}

/** Relative luminance (WCAG 2.x) of an sRGB colour given as '#rrggbb' or [r, g, b] (0…255). */
export function luminance(colour) {
  const [r, g, b] = typeof colour === 'string' ? hexChannels(colour) : colour;
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** Contrast ratio of two relative luminances, 1…21. */
function contrastRatio(a, b) {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

const INK_LUMINANCE = Object.fromEntries(Object.entries(INKS).map(([name, hex]) => [name, luminance(hex)]));
const chosen = new Map(); // fill → ink name; the palette has only 256 colours

/**
 * Which ink to print on `fill` ('#rrggbb'): 'light' or 'dark', whichever contrasts more, and
 * 'black' where neither reaches MIN_CONTRAST.
 */
export function inkFor(fill) {
  let ink = chosen.get(fill);
  if (ink) return ink;
  const background = luminance(fill);
  const light = contrastRatio(background, INK_LUMINANCE.light);
  const dark = contrastRatio(background, INK_LUMINANCE.dark);
  ink = light >= dark ? 'light' : 'dark';
  if (Math.max(light, dark) < MIN_CONTRAST) ink = 'black';
  chosen.set(fill, ink);
  return ink;
}
