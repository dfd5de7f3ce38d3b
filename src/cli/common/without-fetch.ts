/**
 * Runs `load` with the global `fetch` hidden. yoga-layout (Ink's layout engine) loads its
 * WebAssembly from a data: URL through `fetch` when one exists, which makes Node load its
 * whole HTTP client first (about 20 ms more at launch); without `fetch` it decodes
 * the same bytes directly.
 */
export async function withoutFetch<T>(load: () => Promise<T>): Promise<T> {
  const saved = Object.getOwnPropertyDescriptor(globalThis, "fetch");
  if (!saved?.configurable) return load();
  Object.defineProperty(globalThis, "fetch", { value: undefined, configurable: true, writable: true });
  try {
    return await load();
  } finally {
    Object.defineProperty(globalThis, "fetch", saved);
  }
}
