// The built-ins that reading an argument relies on, captured when this module loads. A caller's
// code could replace a prototype's method or getter later (Float64Array.prototype.set, the length
// getter …); these are the originals, called directly, so that no redefined property can fake a
// kind, a length or a size, nor run the caller's code in the middle of a copy.
const TypedArrayPrototype = Object.getPrototypeOf(Float64Array.prototype);
const getter = (prototype, key) => Object.getOwnPropertyDescriptor(prototype, key)?.get;
// method(self, …args) for method.call(self, …args), bound now: a later Function.prototype.call
// of the caller's changes nothing here.
const uncurry = (method) => Function.prototype.call.bind(method);
export const kindOf = uncurry(getter(TypedArrayPrototype, Symbol.toStringTag));
export const realLength = uncurry(getter(TypedArrayPrototype, 'length'));
export const bufferOf = uncurry(getter(TypedArrayPrototype, 'buffer'));
export const byteOffsetOf = uncurry(getter(TypedArrayPrototype, 'byteOffset'));
/** %TypedArray%.prototype.set: copies a typed array's entries, converting them, with no iterator. */
export const copyInto = uncurry(TypedArrayPrototype.set);
/** %TypedArray%.prototype.subarray: a view of part of a typed array (of the heap, for a copy out). */
export const subarrayOf = uncurry(TypedArrayPrototype.subarray);
export const arrayBufferBytes = uncurry(getter(ArrayBuffer.prototype, 'byteLength'));
const maxBytes = getter(ArrayBuffer.prototype, 'maxByteLength');
const arrayBufferMaxBytes = maxBytes === undefined ? undefined : uncurry(maxBytes);
// A page that is not cross-origin isolated may have no SharedArrayBuffer at all.
const sharedBufferBytes = globalThis.SharedArrayBuffer ? uncurry(getter(SharedArrayBuffer.prototype, 'byteLength')) : null;
// The constructors of the fixed-length views made of each argument's data.
export const VIEWS = Object.freeze({ Float64Array, Float32Array });

// The byte length of an ArrayBuffer or a SharedArrayBuffer, and the getter that read it.
export function bytesGetterOf(buffer) {
  try {
    arrayBufferBytes(buffer);
    return arrayBufferBytes;
  } catch {
    return sharedBufferBytes; // the one other kind of buffer a typed array can have
  }
}
// A detached ArrayBuffer reports 0 for both its size and its largest size; one resized to nothing
// keeps its largest size. (A SharedArrayBuffer, for which these getters throw, cannot be detached.)
export function detached(buffer) {
  try {
    return arrayBufferBytes(buffer) === 0 && (arrayBufferMaxBytes === undefined || arrayBufferMaxBytes(buffer) === 0);
  } catch {
    return false;
  }
}
