/**
 * The store API the UI and the CLI use. Implementations live beside this file;
 * this module only re-exports them so callers have one import.
 */
export type { ScanHandlers, ScanOptions, ScanResult } from "./scan-store.js";
export { scanStore } from "./scan-store.js";
export type { SessionIndex } from "../model/session-index.js";
export { loadSessionIndex, readEntry } from "../model/session-index.js";
export { activePath } from "../model/tree.js";
export type { StoreLocation } from "./locate.js";
export { locateStore, checkStore } from "./locate.js";
