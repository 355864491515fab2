/** Anything that holds resources to release. Same shape as vscode.Disposable, so both layers can share it. */
export interface IDisposable {
  dispose(): void;
}

/** Wraps a function as a disposable. */
export function toDisposable(fn: () => void): IDisposable {
  let done = false;
  return {
    dispose: () => {
      if (!done) {
        done = true;
        fn();
      }
    },
  };
}

/** Disposes every item, in reverse order of registration, and empties the list. */
export function disposeAll(items: IDisposable[]): void {
  while (items.length) {
    items.pop()!.dispose();
  }
}

/** Base class that owns child disposables registered with `_register` (PRGH lifecycle.ts). */
export abstract class Disposable implements IDisposable {
  private readonly _children: IDisposable[] = [];
  private _disposed = false;

  protected get isDisposed(): boolean {
    return this._disposed;
  }

  protected _register<T extends IDisposable>(child: T): T {
    if (this._disposed) {
      child.dispose();
    } else {
      this._children.push(child);
    }
    return child;
  }

  dispose(): void {
    if (!this._disposed) {
      this._disposed = true;
      disposeAll(this._children);
    }
  }
}

/** Holds at most one disposable; setting a new value disposes the old one (one connection's lifetime). */
export class MutableDisposable<T extends IDisposable> implements IDisposable {
  private _value: T | undefined;

  get value(): T | undefined {
    return this._value;
  }

  set value(next: T | undefined) {
    if (this._value !== next) {
      this._value?.dispose();
      this._value = next;
    }
  }

  dispose(): void {
    this.value = undefined;
  }
}
