// Internal: everything a flow holds (timers, requests, listeners), registered
// as it is taken and released at once when the flow ends, whatever ends it.
// After the end, no timer it set runs and no listener it added hears.

export class Lifetime {
  #timers = new Set<ReturnType<typeof setTimeout>>();
  #controllers = new Set<AbortController>();
  #cleanups: Array<() => void> = [];
  #ended = false;

  get ended(): boolean {
    return this.#ended;
  }

  /** How many timers, requests and listeners are held (0 once ended). */
  get held(): number {
    return this.#timers.size + this.#controllers.size + this.#cleanups.length;
  }

  /** Runs `fn` after `ms`, unless the lifetime ended first. */
  setTimer(fn: () => void, ms: number): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      if (!this.#ended) fn();
    }, ms);
    this.#timers.add(timer);
    return timer;
  }

  clearTimer(timer: ReturnType<typeof setTimeout> | undefined): void {
    if (timer === undefined) return;
    clearTimeout(timer);
    this.#timers.delete(timer);
  }

  /** A listener held until the end. */
  listen(target: EventTarget, type: string, listener: (event: Event) => void): void {
    target.addEventListener(type, listener);
    this.onEnd(() => target.removeEventListener(type, listener));
  }

  onEnd(cleanup: () => void): void {
    this.#cleanups.push(cleanup);
  }

  /** An AbortController aborted at the end, unless let go of first. */
  abortable(): AbortController {
    const controller = new AbortController();
    this.#controllers.add(controller);
    return controller;
  }

  letGo(controller: AbortController): void {
    this.#controllers.delete(controller);
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const timer of this.#timers) clearTimeout(timer);
    for (const controller of this.#controllers) controller.abort();
    for (const cleanup of this.#cleanups) cleanup();
    this.#timers.clear();
    this.#controllers.clear();
    this.#cleanups = [];
  }
}
