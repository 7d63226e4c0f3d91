// Embeds name a figure's settings without the figure prefix the page uses:
//   page:  index.html?temperature.tau=0.5          store key "temperature.tau"
//   embed: embed.html?figure=temperature&tau=0.5   <attention-figure name="temperature" tau="0.5">
// These two functions translate between the forms, so one store serves both. A page-level key
// (the sentence every toy-sentence figure follows) has one name everywhere.
export const PAGE_PARAMS = Object.freeze(['sentence', 'features']);

/** Embed parameters (a URLSearchParams or [name, value] pairs) → a page-style query string. */
export function prefixedSearch(figureName, pairs) {
  const params = new URLSearchParams();
  for (const [name, value] of pairs) {
    if (name === 'figure' || name === 'name') continue;
    // A repeat stays: the store reads the first and says so.
    params.append(PAGE_PARAMS.includes(name) ? name : `${figureName}.${name}`, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A page-style query string → the embed's own [name, value] pairs for this figure. */
export function unprefixedPairs(figureName, search) {
  const prefix = `${figureName}.`;
  return [...new URLSearchParams(search)]
    .filter(([name]) => name.startsWith(prefix) || PAGE_PARAMS.includes(name))
    .map(([name, value]) => [PAGE_PARAMS.includes(name) ? name : name.slice(prefix.length), value]);
}
