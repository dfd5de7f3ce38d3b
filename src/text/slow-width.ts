// string-width itself, for text the fast path in width.ts does not handle. Its own module
// so the bundle can load string-width only when such text first appears (scripts/bundle.mjs).
export { default as slowStringWidth } from "string-width";
