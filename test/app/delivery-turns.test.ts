import { describe, expect, it } from 'vitest';
import { createDeliveryTurns } from '../../src/app/delivery-turns.ts';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Lets every pending promise reaction run, without giving the event loop a turn. */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('createDeliveryTurns', () => {
  it('lets a delivery work at once when none was worked in this turn', async () => {
    const turns = createDeliveryTurns();
    let worked = false;
    void turns.take().then(() => {
      worked = true;
    });
    await settle();
    expect(worked).toBe(true);
    expect(turns.waiting()).toBe(0);
  });

  it('gives every further delivery of a turn a later turn of its own, in the order they came', async () => {
    const turns = createDeliveryTurns();
    const order: string[] = [];
    const takes = ['a', 'b', 'c', 'd'].map((name) => turns.take().then(() => order.push(name)));
    await settle();
    expect(order).toEqual(['a']);
    expect(turns.waiting()).toBe(3);
    for (const expected of [
      ['a', 'b'],
      ['a', 'b', 'c'],
      ['a', 'b', 'c', 'd'],
    ]) {
      await nextTurn();
      await settle();
      expect(order).toEqual(expected);
    }
    await Promise.all(takes);
    expect(turns.waiting()).toBe(0);
  });

  it('puts a delivery arriving while others wait behind them, not ahead', async () => {
    const turns = createDeliveryTurns();
    const order: string[] = [];
    void turns.take().then(() => order.push('first'));
    void turns.take().then(() => order.push('queued'));
    await nextTurn();
    // A new turn: 'queued' was worked in it, so a newcomer waits for the next one.
    void turns.take().then(() => order.push('newcomer'));
    await settle();
    expect(order).toEqual(['first', 'queued']);
    await nextTurn();
    await settle();
    expect(order).toEqual(['first', 'queued', 'newcomer']);
  });

  it('works a delivery at once again once a burst is over', async () => {
    const turns = createDeliveryTurns();
    await Promise.all([turns.take(), turns.take(), turns.take()]);
    await nextTurn();
    await nextTurn();
    let worked = false;
    void turns.take().then(() => {
      worked = true;
    });
    await settle();
    expect(worked).toBe(true);
  });
});
