// Creating SVG elements by hand is verbose; this is the one helper every chart uses.
// Attributes only (never a style attribute): the page runs under a CSP without 'unsafe-inline'.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Creates an SVG element with attributes, optionally appending it to a parent. */
export function svgElement(tag, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) element.setAttribute(name, String(value));
  }
  if (parent) parent.appendChild(element);
  return element;
}

/** Creates an HTML element with attributes and optional text. */
export function htmlElement(tag, attributes = {}, text = null, parent = null) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) element.setAttribute(name, String(value));
  }
  if (text !== null) element.textContent = text;
  if (parent) parent.appendChild(element);
  return element;
}

/**
 * Sets an element's text on a path a key press takes: nothing when the text is the same, and
 * otherwise the element's one text node changed in place. (textContent = … replaces the node
 * even with the same text, and each new node is laid out afresh.)
 */
export function setText(element, text) {
  const node = element.firstChild;
  if (node !== null && node === element.lastChild && node.nodeType === Node.TEXT_NODE) {
    if (node.data !== text) node.data = text;
  } else if (element.textContent !== text) {
    element.textContent = text;
  }
}

/**
 * Sets attributes on a path a key press takes, each only when its value changed: setting one to
 * the value it already has still restyles the element.
 */
export function setAttributes(element, attributes) {
  for (const [name, value] of Object.entries(attributes)) {
    const text = String(value);
    if (element.getAttribute(name) !== text) element.setAttribute(name, text);
  }
}

/**
 * Makes `parent`'s children one `tag` element per text, in order, on a path a key press takes:
 * the elements already there keep their place and get their new text (setText), and only the
 * difference in count is made or taken out. (replaceChildren with new elements lays out and
 * names every one of them afresh, and a screen reader inside the list loses its place.)
 */
export function setChildTexts(parent, tag, texts) {
  while (parent.children.length > texts.length) parent.lastElementChild.remove();
  while (parent.children.length < texts.length) htmlElement(tag, {}, null, parent);
  texts.forEach((text, i) => setText(parent.children[i], text));
}

/** Shows or hides an element on a path a key press takes, writing `hidden` only when it changes. */
export function setHidden(element, hidden) {
  if (element.hidden !== hidden) element.hidden = hidden;
}

/**
 * A box of fixed size for a value that changes on every step (.fixed-text, styles/figures.css),
 * in `parent`, showing `text`: `chars` characters wide, or as wide as its CSS makes it.
 */
export function fixedTextBox(parent, chars = null, text = null) {
  const box = htmlElement('span', { class: 'fixed-text' }, text, parent);
  if (chars !== null) box.style.setProperty('--al-fixed-chars', String(chars));
  return box;
}

let nextId = 0;
/** A document-unique id with a readable prefix, for label/for and aria references. */
export function uniqueId(prefix) {
  nextId += 1;
  return `${prefix}-${nextId}`;
}

/**
 * A figure's body: the element its module draws into, placed before the figure's caption
 * (the caption written in index.html stays last, above the toolbar).
 */
export function figureBody(figure, className = 'figure-body') {
  const body = htmlElement('div', { class: className });
  figure.insertBefore(body, figure.querySelector('figcaption'));
  return body;
}
