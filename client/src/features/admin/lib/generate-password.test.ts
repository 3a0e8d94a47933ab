import { afterEach, describe, expect, test, vi } from 'vitest';
import { capitaliseWords, generatePassword, PASSWORD_ALPHABET, withIndiaPrefix } from './generate-password';

afterEach(() => vi.restoreAllMocks());

describe('generatePassword', () => {
  test('gives 10 characters by default, all from the alphabet', () => {
    for (let i = 0; i < 200; i++) {
      const pw = generatePassword();
      expect(pw).toHaveLength(10);
      for (const c of pw) expect(PASSWORD_ALPHABET).toContain(c);
    }
  });

  test('the alphabet leaves out characters that are easily misread (0/O, 1/l/I)', () => {
    for (const c of '0O1lI') expect(PASSWORD_ALPHABET).not.toContain(c);
    expect(new Set(PASSWORD_ALPHABET).size).toBe(PASSWORD_ALPHABET.length);
  });

  test('draws its randomness from crypto.getRandomValues, never Math.random', () => {
    const csprng = vi.spyOn(crypto, 'getRandomValues');
    const weak = vi.spyOn(Math, 'random');
    generatePassword();
    expect(csprng).toHaveBeenCalled();
    expect(csprng.mock.calls[0]?.[0]).toBeInstanceOf(Uint8Array);
    expect(weak).not.toHaveBeenCalled();
  });

  test('the characters follow the random bytes (the CSPRNG output decides the password)', () => {
    const bytes = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    const pw = generatePassword(10, (a) => {
      a.set(bytes.concat(Array(a.length - bytes.length).fill(0)));
      return a;
    });
    expect(pw).toBe(bytes.map((b) => PASSWORD_ALPHABET[b]).join(''));
  });

  test('bytes at or above the largest multiple of the alphabet size are rejected (no modulo bias)', () => {
    const limit = 256 - (256 % PASSWORD_ALPHABET.length);
    let round = 0;
    // First round: only rejectable bytes; second round: usable ones.
    const pw = generatePassword(3, (a) => {
      a.fill(round++ === 0 ? limit : 1);
      return a;
    });
    expect(round).toBe(2);
    expect(pw).toBe(PASSWORD_ALPHABET[1]?.repeat(3));
  });

  test('passwords differ from one call to the next and every character of the alphabet turns up', () => {
    const many = Array.from({ length: 300 }, () => generatePassword());
    expect(new Set(many).size).toBe(many.length);
    const seen = new Set(many.join(''));
    expect(seen.size).toBe(PASSWORD_ALPHABET.length);
  });
});

describe('person field helpers', () => {
  test('§5: a mobile without @ of exactly 10 characters gets +91; anything else is left alone', () => {
    expect(withIndiaPrefix('9876543210')).toBe('+919876543210');
    expect(withIndiaPrefix(' 9876543210 ')).toBe('+919876543210');
    expect(withIndiaPrefix('+919876543210')).toBe('+919876543210');
    expect(withIndiaPrefix('987654321')).toBe('987654321');
    expect(withIndiaPrefix('a@b.in.com')).toBe('a@b.in.com');
  });

  test('names are capitalised word by word as typed; Devanagari has no case and is kept', () => {
    expect(capitaliseWords('ravi kumar')).toBe('Ravi Kumar');
    expect(capitaliseWords('ravi ')).toBe('Ravi ');
    expect(capitaliseWords('anil d.souza-rao')).toBe('Anil D.Souza-Rao');
    expect(capitaliseWords('McDonald')).toBe('McDonald');
    expect(capitaliseWords('सीता देवी')).toBe('सीता देवी');
  });
});
