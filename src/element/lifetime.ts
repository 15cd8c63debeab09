// Internal: everything a flow holds (timers, requests, listeners), registered
// as it is taken and released at once when the flow ends, whatever ends it.
// After the end, no timer it set runs and no listener it added hears. An
// element holds its page listeners in one too, ended when it leaves the page.

export class Lifetime {
  /** What is held, each by what releases it at the end: a timer's clearing, a request's abort, a listener's removal. */
  #held = new Set<() => void>();
  #ended = false;

  get ended(): boolean {
    return this.#ended;
  }

  /** How many timers, requests and listeners are held (0 once ended). */
  get held(): number {
    return this.#held.size;
  }

  /** Runs `release` at the end; returns the way to let go of it sooner (then it never runs). */
  onEnd(release: () => void): () => void {
    this.#held.add(release);
    return () => this.#held.delete(release);
  }

  /** Runs `fn` after `ms`, unless the lifetime ended first; returns the way to clear it. */
  setTimer(fn: () => void, ms: number): () => void {
    const timer = setTimeout(() => {
      letGo();
      if (!this.#ended) fn();
    }, ms);
    const letGo = this.onEnd(() => clearTimeout(timer));
    return () => {
      clearTimeout(timer);
      letGo();
    };
  }

  /** A listener held until the end; returns the way to remove it sooner. */
  listen(target: EventTarget, type: string, listener: (event: Event) => void): () => void {
    const remove = () => target.removeEventListener(type, listener);
    target.addEventListener(type, listener);
    const letGo = this.onEnd(remove);
    return () => {
      remove();
      letGo();
    };
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const release of this.#held) release();
    this.#held.clear();
  }
}
