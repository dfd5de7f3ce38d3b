import type { TreeShape } from "./tree.js";

/**
 * Pre-order of the whole tree with the branch holding the leaf first at every level
 * (roots too), as pi's /tree lists it. Iterative.
 */
export function displayOrder(tree: TreeShape, leafId: string | null): string[] {
  const onActive = new Set<string>();
  for (
    let cur = leafId;
    cur !== null && tree.parent.has(cur) && !onActive.has(cur);
    cur = tree.parent.get(cur) ?? null
  ) {
    onActive.add(cur);
  }
  const activeFirst = (ids: readonly string[]) => {
    const i = ids.findIndex((id) => onActive.has(id));
    return i <= 0 ? ids : [ids[i], ...ids.slice(0, i), ...ids.slice(i + 1)];
  };
  const order: string[] = [];
  const stack = [...activeFirst(tree.roots)].reverse();
  while (stack.length) {
    const id = stack.pop()!;
    order.push(id);
    const kids = tree.children.get(id);
    if (kids) {
      const ordered = activeFirst(kids);
      for (let i = ordered.length - 1; i >= 0; i--) stack.push(ordered[i]);
    }
  }
  return order;
}
