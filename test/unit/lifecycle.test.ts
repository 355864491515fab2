import * as assert from 'node:assert/strict';
import { Emitter } from '../../src/domain/events';
import { Disposable, MutableDisposable, toDisposable } from '../../src/util/lifecycle';

describe('lifecycle and events', () => {
  it('disposes registered children once, in reverse order, and children registered after disposal at once', () => {
    const order: string[] = [];
    class Owner extends Disposable {
      add(name: string) {
        return this._register(toDisposable(() => order.push(name)));
      }
    }
    const o = new Owner();
    o.add('a');
    o.add('b');
    o.dispose();
    o.dispose();
    assert.deepEqual(order, ['b', 'a']);
    o.add('late');
    assert.deepEqual(order, ['b', 'a', 'late']);
  });

  it('MutableDisposable disposes the previous value when replaced', () => {
    const seen: number[] = [];
    const holder = new MutableDisposable();
    holder.value = toDisposable(() => seen.push(1));
    holder.value = toDisposable(() => seen.push(2));
    assert.deepEqual(seen, [1]);
    holder.dispose();
    assert.deepEqual(seen, [1, 2]);
  });

  it('Emitter delivers to listeners until they are disposed', () => {
    const e = new Emitter<number>();
    const got: number[] = [];
    const sub = e.event((n) => got.push(n));
    e.fire(1);
    sub.dispose();
    e.fire(2);
    assert.deepEqual(got, [1]);
  });
});
