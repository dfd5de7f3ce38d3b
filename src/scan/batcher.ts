/** Collects items and hands them over in batches: at `size` items or `ms` after the first. */
export class Batcher<T> {
  private items: T[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly emit: (items: T[]) => void,
    private readonly size = 64,
    private readonly ms = 30,
  ) {}

  push(item: T): void {
    this.items.push(item);
    if (this.items.length >= this.size) this.flush();
    else if (!this.timer) this.timer = setTimeout(() => this.flush(), this.ms);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.items.length === 0) return;
    const items = this.items;
    this.items = [];
    this.emit(items);
  }
}
