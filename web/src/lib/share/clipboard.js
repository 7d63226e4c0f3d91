// Copying text for the reader, with a fallback for browsers that refuse the Clipboard API.

/**
 * Copies text to the clipboard. When the Clipboard API is unavailable or refused, falls back
 * to selecting `field` (revealing it if hidden) and asking the browser to copy the selection.
 * Resolves to true when the text is on the clipboard, false when only the selection is left.
 */
export async function copyText(text, field = null) {
  try {
    if (!navigator.clipboard?.writeText) throw new Error('no Clipboard API');
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!field) return false;
    field.value = text;
    field.hidden = false;
    field.closest('[hidden]')?.removeAttribute('hidden');
    field.focus();
    field.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  }
}
