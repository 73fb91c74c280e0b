/**
 * RFC 6238 TOTP (SHA-1, 30 s steps, 6 digits) over WebCrypto HMAC, for journeys that enable
 * two-factor authentication and then sign in with a code, as an authenticator app would.
 */

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Decode(input: string): Uint8Array<ArrayBuffer> {
  const clean = input.replace(/[\s=-]/g, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((value >>> bits) & 0xff);
    }
  }
  return new Uint8Array(out);
}

/** The code for the time step containing `timeMs` (RFC 4226 dynamic truncation). */
export async function totp(secretBase32: string, timeMs = Date.now(), stepSeconds = 30, digits = 6): Promise<string> {
  const counter = Math.floor(timeMs / 1000 / stepSeconds);
  const message = new Uint8Array(8);
  new DataView(message.buffer).setBigUint64(0, BigInt(counter));
  const key = await crypto.subtle.importKey('raw', base32Decode(secretBase32), { name: 'HMAC', hash: 'SHA-1' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, message));
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** Milliseconds until the next time step starts. */
export function msUntilNextStep(timeMs = Date.now(), stepSeconds = 30): number {
  return stepSeconds * 1000 - (timeMs % (stepSeconds * 1000));
}
