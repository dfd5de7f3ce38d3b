import { describe, expect, it } from "vitest";
import { displayWidth, truncatePathToWidth } from "./sanitize.js";
import { hostPathToWidth, splitHostPath } from "./host-path.js";

describe("a host's folder cut to a width", () => {
  it("keeps the host and cuts the path's start", () => {
    const cut = hostPathToWidth("devbox", "/home/someone/projects/deep/folder", 24);
    expect(cut).toBe("devbox:…/deep/folder");
    expect(displayWidth(cut)).toBeLessThanOrEqual(24);
    expect(hostPathToWidth("devbox", "/p", 20)).toBe("devbox:/p");
    expect(hostPathToWidth(undefined, "/home/someone/projects/deep/folder", 16)).toBe(
      truncatePathToWidth("/home/someone/projects/deep/folder", 16),
    );
    // Narrower than the host: the host's start, cut.
    expect(displayWidth(hostPathToWidth("a-very-long-host-name", "/p", 8))).toBeLessThanOrEqual(8);
  });

  it("tells a host's label from a local folder by the hosts it knows", () => {
    expect(splitHostPath("gpu:/srv/x", ["devbox", "gpu"])).toEqual({ host: "gpu", path: "/srv/x" });
    expect(splitHostPath("/srv/gpu:x", ["gpu"])).toBeUndefined();
  });
});
