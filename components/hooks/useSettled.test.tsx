import { Text } from "ink";
import { render } from "ink-testing-library";
import { act } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useSettled } from "./useSettled.js";

function Show({ value }: { value: string | undefined }) {
  return <Text>{useSettled(value, 60) ?? "-"}</Text>;
}

afterEach(() => vi.useRealTimers());

describe("useSettled", () => {
  it("follows a value once it rests, at once when there was none, never in between", async () => {
    vi.useFakeTimers();
    const r = render(<Show value={undefined} />);
    expect(r.lastFrame()).toBe("-");
    r.rerender(<Show value="a" />);
    expect(r.lastFrame()).toBe("a");
    // Held keys: b and c come 30 ms apart; neither is shown while they keep coming.
    r.rerender(<Show value="b" />);
    await act(async () => void vi.advanceTimersByTime(30));
    r.rerender(<Show value="c" />);
    await act(async () => void vi.advanceTimersByTime(30));
    expect(r.lastFrame()).toBe("a");
    await act(async () => void vi.advanceTimersByTime(40));
    expect(r.lastFrame()).toBe("c");
  });
});
