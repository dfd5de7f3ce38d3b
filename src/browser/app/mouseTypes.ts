/* The mouse action, apart from its reducer: the held actions (verifyTypes.ts) name it, and the reducer imports the state that imports them. */

/** The pane under the pointer (components/mouse/hitTest.ts finds it from the layout). */
export type MousePane = "list" | "preview" | "reader" | "other";

export type MouseAction = {
  type: "mouse";
  kind: "wheel" | "click";
  pane: MousePane;
  dir?: -1 | 1;
  row?: number;
  at: number;
};
