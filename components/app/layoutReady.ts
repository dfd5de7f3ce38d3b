/**
 * Resolves once Ink's layout engine (yoga-layout's WebAssembly) can be used. Loaded as an
 * ES module, yoga-layout is ready when its import finishes (top-level await); the bundle
 * (scripts/bundle.mjs) is a script without top-level await, so there this module is
 * replaced by yoga's own instantiation promise, which `runBrowser` awaits before rendering.
 */
export const layoutReady: Promise<void> = Promise.resolve();
