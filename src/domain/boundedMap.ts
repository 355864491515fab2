/**
 * A Map that forgets its oldest entries past a size limit. Used for the domain's memories (resolutions seen before
 * their request, items already notified) so that a long-running editor does not grow without bound.
 */
export class BoundedMap<K, V> {
  private readonly _map = new Map<K, V>();

  constructor(readonly maxSize: number) {
    if (!(maxSize >= 1)) {
      throw new RangeError('maxSize must be at least 1');
    }
  }

  get size(): number {
    return this._map.size;
  }

  get(key: K): V | undefined {
    return this._map.get(key);
  }

  has(key: K): boolean {
    return this._map.has(key);
  }

  /** Sets the value and makes the entry the newest; evicts the oldest entries beyond `maxSize`. */
  set(key: K, value: V): this {
    this._map.delete(key);
    this._map.set(key, value);
    while (this._map.size > this.maxSize) {
      const oldest = this._map.keys().next();
      if (oldest.done) {
        break;
      }
      this._map.delete(oldest.value);
    }
    return this;
  }

  delete(key: K): boolean {
    return this._map.delete(key);
  }

  keys(): IterableIterator<K> {
    return this._map.keys();
  }
}
