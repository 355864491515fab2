import type { IDisposable } from '../util/lifecycle';

/** Same shape as vscode.Event, so src/ui can pass these straight through. */
export type Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: IDisposable[]) => IDisposable;

/** A minimal event emitter with no vscode dependency (house style §8.6). */
export class Emitter<T> implements IDisposable {
  private _listeners = new Set<(e: T) => unknown>();
  private _event: Event<T> | undefined;

  get event(): Event<T> {
    this._event ??= (listener, thisArgs, disposables) => {
      const bound = thisArgs === undefined ? listener : listener.bind(thisArgs);
      this._listeners.add(bound);
      const d = { dispose: () => void this._listeners.delete(bound) };
      disposables?.push(d);
      return d;
    };
    return this._event;
  }

  /** Calls every listener; a throwing listener does not stop the others. */
  fire(e: T): void {
    for (const l of [...this._listeners]) {
      try {
        l(e);
      } catch (err) {
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }

  dispose(): void {
    this._listeners.clear();
  }
}
