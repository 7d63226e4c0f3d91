/** Calls `action` once calls have stopped for `delay` ms, with the last call's arguments. */
export function debounce(action, delay) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => action(...args), delay);
  };
}
