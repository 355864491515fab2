import * as assert from 'node:assert/strict';
import { effectiveTimeoutSec, metaTimeoutOf, parseConfiguredTimeoutSec, parseTimeoutSec } from '../../../src/policy';

const YEAR = 31_536_000;

describe('ask timeouts', () => {
  describe('parseTimeoutSec', () => {
    it('reads a positive integer, or a string that is exactly one, up to a year inclusive', () => {
      assert.equal(parseTimeoutSec(1), 1);
      assert.equal(parseTimeoutSec(3600), 3600);
      assert.equal(parseTimeoutSec('3600'), 3600);
      assert.equal(parseTimeoutSec('+60'), 60);
      assert.equal(parseTimeoutSec(YEAR), YEAR);
      assert.equal(parseTimeoutSec(String(YEAR)), YEAR);
    });

    it('is undefined for everything else', () => {
      for (const v of [
        0,
        -1,
        1.5,
        YEAR + 1,
        String(YEAR + 1),
        1e15,
        NaN,
        Infinity,
        '0',
        '-5',
        '60s',
        ' 60',
        '60 ',
        '1.5',
        '1e3',
        '',
        'soon',
        '99999999999999999999',
        null,
        undefined,
        true,
        {},
        [60],
      ]) {
        assert.equal(parseTimeoutSec(v), undefined, JSON.stringify(v));
      }
    });
  });

  describe('parseConfiguredTimeoutSec', () => {
    it('reads a positive integer or a string starting with one, with no upper bound', () => {
      assert.equal(parseConfiguredTimeoutSec(120), 120);
      assert.equal(parseConfiguredTimeoutSec('120'), 120);
      assert.equal(parseConfiguredTimeoutSec('600s'), 600);
      assert.equal(parseConfiguredTimeoutSec(YEAR * 2), YEAR * 2);
    });

    it('falls back to the 300 s default for anything else: a misconfiguration never means "never deny"', () => {
      for (const v of [undefined, null, 0, -10, 1.5, NaN, Infinity, '', 'never', '-5', ' 60', '0', {}, [120], false]) {
        assert.equal(parseConfiguredTimeoutSec(v), 300, JSON.stringify(v));
      }
    });
  });

  describe('effectiveTimeoutSec', () => {
    it('gives an in-turn request the ceiling, whatever the request and policy say', () => {
      assert.equal(effectiveTimeoutSec({ detached: false, metaTimeout: 30, askTimeout: 60 }), 300);
      assert.equal(effectiveTimeoutSec({ detached: false, metaTimeout: 86_400, askTimeout: 86_400 }), 300);
      assert.equal(effectiveTimeoutSec({ detached: false, ceilingSec: '90' }), 90);
    });

    it('gives a detached request the shorter of _meta.fountain.timeout and ask_timeout', () => {
      assert.equal(effectiveTimeoutSec({ detached: true, metaTimeout: 86_400, askTimeout: 3600 }), 3600);
      assert.equal(effectiveTimeoutSec({ detached: true, metaTimeout: '1800', askTimeout: 3600 }), 1800);
    });

    it('honours either alone, even above the ceiling', () => {
      assert.equal(effectiveTimeoutSec({ detached: true, metaTimeout: 86_400 }), 86_400);
      assert.equal(effectiveTimeoutSec({ detached: true, askTimeout: '172800' }), 172_800);
    });

    it('falls back past unreadable or over-a-year values, down to the ceiling', () => {
      assert.equal(effectiveTimeoutSec({ detached: true, metaTimeout: 'later', askTimeout: 7200 }), 7200);
      assert.equal(effectiveTimeoutSec({ detached: true, metaTimeout: YEAR + 1, askTimeout: 7200 }), 7200);
      assert.equal(effectiveTimeoutSec({ detached: true, metaTimeout: 600, askTimeout: -1 }), 600);
      assert.equal(effectiveTimeoutSec({ detached: true, metaTimeout: 0, askTimeout: 1e15 }), 300);
      assert.equal(effectiveTimeoutSec({ detached: true }), 300);
      assert.equal(effectiveTimeoutSec({ detached: true, ceilingSec: 240 }), 240);
      assert.equal(effectiveTimeoutSec({ detached: true, ceilingSec: 'off' }), 300);
    });
  });

  it('metaTimeoutOf reads _meta.fountain.timeout, unparsed, and nothing else', () => {
    assert.equal(metaTimeoutOf({ fountain: { timeout: 600 } }), 600);
    assert.equal(metaTimeoutOf({ fountain: { timeout: 'x' } }), 'x');
    assert.equal(metaTimeoutOf({ 'fountain.timeout': 600 }), undefined);
    assert.equal(metaTimeoutOf({ fountain: null }), undefined);
    assert.equal(metaTimeoutOf(null), undefined);
    assert.equal(metaTimeoutOf({ fountain: Object.create({ timeout: 5 }) as object }), undefined);
  });
});
