import { describe, expect, it } from 'vitest';
import { PairingTokens } from './PairingTokens';

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return 'redeemed';
};

describe('PairingTokens', () => {
  it('redeems once, then says spent; past its life says expired; unknown is unauthorized', () => {
    let time = 0;
    const tokens = new PairingTokens(() => time, 1000);
    const a = tokens.mint('control');
    const b = tokens.mint('view');
    expect(tokens.redeem(a)).toBe('control');
    expect(codeOf(() => tokens.redeem(a))).toBe('pairing_token_spent');
    time = 1000;
    expect(codeOf(() => tokens.redeem(b))).toBe('pairing_token_expired');
    expect(codeOf(() => tokens.redeem('nope'))).toBe('unauthorized');
  });

  it('voids the tokens of rotated roles only', () => {
    const tokens = new PairingTokens();
    const control = tokens.mint('control');
    const view = tokens.mint('view');
    tokens.voidRoles(['view']);
    expect(codeOf(() => tokens.redeem(view))).toBe('unauthorized');
    expect(tokens.redeem(control)).toBe('control');
  });

  it('forgets the oldest beyond its bound, so minting cannot grow memory without end', () => {
    const tokens = new PairingTokens();
    const first = tokens.mint('control');
    for (let i = 0; i < 1000; i++) tokens.mint('control');
    expect(codeOf(() => tokens.redeem(first))).toBe('unauthorized');
  });
});
