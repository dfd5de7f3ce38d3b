/*
 * The usage view (`U`): a layer over the list whose own state is its grouping, what the
 * bars measure and how far it is scrolled. What it shows is computed from the list's rows
 * (the current scope and search) as it draws, so it follows the scan as it goes on.
 */

export type { UsageLayer, UsageMetric } from "../core/layers.js";
import type { UsageLayer } from "../core/layers.js";

export const NEW_USAGE_LAYER: UsageLayer = { kind: "usage", by: "day", metric: "cost", top: 0, maxTop: 0, page: 10 };
