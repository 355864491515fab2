/**
 * One seed for every fast-check property of the unit tier, so a run on CI reads the same inputs each time (a property
 * that found a new counterexample by chance would turn CI red at random). `FC_SEED=<n>` picks another seed,
 * `FC_SEED=random` a new one (printed); a counterexample found that way goes into the property's `examples`.
 */
import fc from 'fast-check';

const raw = process.env.FC_SEED;
const seed = raw === 'random' ? Date.now() % 2 ** 31 : raw !== undefined && raw !== '' ? Number(raw) : 20261203;
if (!Number.isSafeInteger(seed)) {
  throw new Error(`FC_SEED must be an integer or "random", not ${JSON.stringify(raw)}`);
}
if (raw !== undefined) {
  console.log(`fast-check seed ${seed}`);
}
fc.configureGlobal({ seed });
