/**
 * What the bench runs inside the page: finding elements, signing in, picking files, downloads
 * started by a link, the probes' service workers, and the plain upload it compares the app with.
 */
import type { BarePage } from './cdp.ts';

/** Finds an element by its text (buttons, menu items) in the page. */
export const byText = (selector: string, text: string) =>
  `[...document.querySelectorAll(${JSON.stringify(selector)})].find((e) => e.textContent.trim() === ${JSON.stringify(text)})`;

export async function login(page: BarePage, origin: string, username: string, password: string) {
  await page.navigate(`${origin}/login`);
  await page.waitFor(byText('button', 'Sign in'));
  await page.eval(`(() => {
    const set = (labelText, value) => {
      const label = [...document.querySelectorAll('label')].find((l) => l.querySelector('span')?.textContent.trim() === labelText)
      const input = label.querySelector('input')
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, value)
      input.dispatchEvent(new Event('input', { bubbles: true }))
    }
    set('Username', ${JSON.stringify(username)})
    set('Password', ${JSON.stringify(password)})
  })()`);
  await page.eval(`${byText('button', 'Sign in')}.click()`);
  await page.waitFor(`location.pathname === '/files' && ${byText('button', 'Upload File')}`, 60_000);
}

/** Adds a hidden file input `id` to the page and picks the file at `path` in it. */
export async function pickFile(page: BarePage, id: string, path: string) {
  await page.eval(
    `(() => { const i = document.createElement('input'); i.type = 'file'; i.id = '${id}'; i.hidden = true; document.body.append(i) })()`,
  );
  await page.setFiles(`document.getElementById('${id}')`, [path]);
}

/** Follows a link to `href` from the page: answers the path of the download it starts, once saved. */
export const downloadFrom = (page: BarePage, href: string) =>
  page.download(() =>
    page.eval(
      `(() => { const a = document.createElement('a'); a.href = '${href}'; document.body.append(a); a.click(); a.remove() })()`,
    ),
  );

/** Registers the service worker `script` for `scope` and waits until it is active (`window[flag]`). */
export async function registerWorker(page: BarePage, script: string, scope: string, flag: string) {
  await page.eval(`(() => {
    navigator.serviceWorker.register('/${script}', { scope: '${scope}' }).then(function ready(r) {
      if (r.active?.state === 'activated') window.${flag} = true
      else setTimeout(() => ready(r), 50)
    })
    return true
  })()`);
  await page.waitFor(`window.${flag} === true`, 30_000);
}

/**
 * The plain upload, run in the page: the same part protocol, 3 PUTs in flight, no encryption.
 * Each part is a slice of the picked file sent as it is, the fastest way a page can send a
 * file's bytes (no copy through JavaScript; reading file.stream() into ArrayBuffer bodies was
 * slower and kept ~1 GiB in the renderer, see the memory note in docs/benchmarks.md).
 */
export const PLAIN_UPLOAD = (partBytes: number, size: number, input = 'bench-plain') => `(async () => {
  const file = document.getElementById('${input}').files[0]
  const b64 = (n) => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(n))))
  const id = crypto.randomUUID()
  const size = ${size}, partBytes = ${partBytes}
  const form = new FormData()
  form.set('metadata', JSON.stringify({ id, parentId: null, isDirectory: false, encryptedFileName: b64(40), nameNonce: b64(12),
    encryptedKey: b64(48), keyNonce: b64(12), encryptedMimeType: b64(40), mimeTypeNonce: b64(12), fileNonce: b64(12), size }))
  const created = await (await fetch('/api/upload', { method: 'POST', body: form })).json()
  const inFlight = new Set()
  for (let n = 0; n < created.parts; n++) {
    while (inFlight.size >= 3) await Promise.race(inFlight)
    const start = n * partBytes, end = Math.min(size, start + partBytes)
    // The ciphertext is a little longer than the plaintext: the last part is padded with zeros.
    const slice = file.slice(Math.min(start, file.size), Math.min(end, file.size))
    const body = end > file.size ? new Blob([slice, new Uint8Array(end - Math.max(start, file.size))]) : slice
    const p = fetch('/api/upload/' + created.uploadId + '/part/' + n, { method: 'PUT', body }).then((r) => {
      if (!r.ok) throw new Error('part ' + n + ': ' + r.status)
      inFlight.delete(p)
    })
    inFlight.add(p)
  }
  await Promise.all(inFlight)
  const done = await fetch('/api/upload/' + created.uploadId + '/complete', { method: 'POST' })
  if (!done.ok) throw new Error('complete: ' + done.status)
  return id
})()`;
