import { expect, test } from 'vitest';
import { imageExtOf, mediaUrlOf } from './offline-media';

/* Images added offline get, on the device, the address the server will give them (docs/authoring.md "Offline authoring"). */

const bytes = (...xs: number[]) => new Uint8Array([...xs, ...new Array(16).fill(0)]);
const PNG = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
const JPEG = bytes(0xff, 0xd8, 0xff, 0xe0);
const WEBP = new Uint8Array([...new TextEncoder().encode('RIFF'), 0, 0, 0, 0, ...new TextEncoder().encode('WEBPVP8 '), 0, 0]);

test('the type is read from the bytes as the server reads it, not from a name', () => {
  expect(imageExtOf(PNG)).toBe('png');
  expect(imageExtOf(JPEG)).toBe('jpg');
  expect(imageExtOf(WEBP)).toBe('webp');
  expect(imageExtOf(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
  expect(imageExtOf(new Uint8Array([0x89, 0x50]))).toBeNull();
});

test('the address is /media/<sha256 of the bytes>.<type>, the server’s own naming', async () => {
  // sha256 of those 24 bytes, computed apart (Python's hashlib), as the server computes it.
  const expected = '/media/f731c2528f4184b386555de339aeb78f1f0908532be04e6bfe1ec790f5f50da9.png';
  expect(await mediaUrlOf(PNG.slice().buffer)).toBe(expected);
  expect(await mediaUrlOf(new TextEncoder().encode('GIF89a').buffer)).toBeNull();
});
