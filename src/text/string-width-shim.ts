// What the bundle gives Ink, widest-line, wrap-ansi and cli-truncate when they import
// string-width (scripts/bundle.mjs): the same answers through width.ts's fast path.
import { stringWidthCompatible } from "./width.js";

export default stringWidthCompatible;
