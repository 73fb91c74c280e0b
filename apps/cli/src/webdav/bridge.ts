/**
 * `sealbox webdav`: a WebDAV server (RFC 4918, classes 1 and 2) on 127.0.0.1 only, over the
 * user's drive, decrypting and encrypting on the fly (docs/cli.md "WebDAV"). It holds the unlocked
 * keys, so it answers only to the loopback address, only to a Host header naming it (a web page
 * cannot reach it through DNS rebinding), and only with its password (HTTP Basic).
 */
import { HEAVY_BYTES, HEAVY_ITEMS, collectSoon } from './collect.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bareMime, nameKey, nameProblem } from '@sealbox/rules';
import { CliError, EXIT } from '../cli-error.ts';
import { type Folder, type RemoteItem, isFolder } from '../remote-tree.ts';
import { decryptedRange } from '../transfers/range.ts';
import { ifHolds, parseIf } from './conditions.ts';
import type { Drive, Resource } from './drive.ts';
import { type Lock, LockTable, timeoutOf, tokensIn } from './locks.ts';
import {
  BadXml,
  DAV,
  type PropName,
  escapeXml,
  multistatus,
  parseLockInfo,
  parsePropfind,
  parseProppatch,
  propXml,
} from './xml.ts';

export interface BridgeOptions {
  drive: Drive;
  port: number;
  password: string;
}

const XML = 'application/xml; charset=utf-8';
const ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, LOCK, UNLOCK';
/** PROPFIND, PROPPATCH and LOCK bodies are small; anything larger is refused unread. */
const XML_BODY_MAX = 1024 * 1024;

const text = (status: number, body = '', headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });
const xml = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': XML, ...headers } });

/** The path's segments, decoded; undefined for one that does not decode. */
function segmentsOf(pathname: string): string[] | undefined {
  try {
    return pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

const hrefOf = (segments: readonly string[], folder: boolean) =>
  `/${segments.map(encodeURIComponent).join('/')}${folder && segments.length > 0 ? '/' : ''}`;

/** The canonical form locks are kept under (names compare as the drive compares them). */
const lockPath = (segments: readonly string[]) => `/${segments.map(nameKey).join('/')}`;

const etagOf = (resource: Resource) =>
  resource.id === null ? '"top"' : `"${resource.id}-${resource.modifiedAt}-${resource.size}"`;
const typeOf = (name: string) => bareMime(Bun.file(name).type) || 'application/octet-stream';

function constantTimeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

async function xmlBody(request: Request): Promise<string> {
  const length = Number(request.headers.get('content-length') ?? 0);
  if (length > XML_BODY_MAX) throw new HttpError(413, 'Body too large');
  const body = await request.text();
  if (body.length > XML_BODY_MAX) throw new HttpError(413, 'Body too large');
  return body;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A CliError (from the server's answer) as the status a WebDAV client understands. */
function statusOf(error: unknown): number {
  if (error instanceof HttpError) return error.status;
  if (error instanceof BadXml) return 400;
  if (!(error instanceof CliError)) return 500;
  const byExit: Partial<Record<number, number>> = {
    [EXIT.notFound]: 404,
    [EXIT.conflict]: 409,
    [EXIT.usage]: 400,
    [EXIT.auth]: 503,
    [EXIT.network]: 502,
  };
  if (/quota|space/i.test(error.message)) return 507;
  return byExit[error.exitCode] ?? 500;
}

function activeLockXml(lock: Lock, href: string): string {
  return (
    `<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope>${lock.exclusive ? '<D:exclusive/>' : '<D:shared/>'}</D:lockscope>` +
    `<D:depth>${lock.deep ? 'infinity' : '0'}</D:depth>${lock.owner ? `<D:owner>${escapeXml(lock.owner)}</D:owner>` : ''}` +
    `<D:timeout>Second-${lock.timeoutSeconds}</D:timeout><D:locktoken><D:href>${lock.token}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${escapeXml(href)}</D:href></D:lockroot></D:activelock>`
  );
}

const SUPPORTED_LOCK =
  '<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>' +
  '<D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>';

export function startBridge({ drive, port, password }: BridgeOptions) {
  const locks = new LockTable();

  /** The DAV: properties of a resource, each as XML. */
  function liveProps(resource: Resource, segments: readonly string[]): Map<string, string> {
    const folder = isFolder(resource);
    const props = new Map<string, string>();
    const name = resource.id === null ? '' : (resource.name ?? resource.id);
    props.set('displayname', escapeXml(name));
    props.set('resourcetype', folder ? '<D:collection/>' : '');
    if (resource.id !== null) {
      props.set('getlastmodified', new Date(resource.modifiedAt).toUTCString());
      props.set('creationdate', new Date(resource.createdAt).toISOString());
    }
    props.set('getetag', escapeXml(etagOf(resource)));
    if (!folder && resource.id !== null) {
      props.set('getcontentlength', String(resource.size));
      props.set('getcontenttype', escapeXml(typeOf(name)));
    }
    props.set('supportedlock', SUPPORTED_LOCK);
    const held = locks.covering(lockPath(segments));
    props.set('lockdiscovery', held.map((lock) => activeLockXml(lock, hrefOf(segments, folder))).join(''));
    return props;
  }

  function propResponse(resource: Resource, segments: readonly string[], request: ReturnType<typeof parsePropfind>) {
    const href = hrefOf(segments, isFolder(resource));
    const props = liveProps(resource, segments);
    if (request.kind === 'propname')
      return { href, propstats: [{ status: 200, props: [...props.keys()].map((name) => propXml({ ns: DAV, name }, '')) }] };
    if (request.kind === 'allprop')
      return { href, propstats: [{ status: 200, props: [...props].map(([name, value]) => propXml({ ns: DAV, name }, value)) }] };
    const found: string[] = [];
    const missing: string[] = [];
    for (const wanted of request.props) {
      const value = wanted.ns === DAV ? props.get(wanted.name) : undefined;
      if (value === undefined) missing.push(propXml(wanted, ''));
      else found.push(propXml(wanted, value));
    }
    return {
      href,
      propstats: [
        { status: 200, props: found },
        { status: 404, props: missing },
      ],
    };
  }

  async function need(segments: readonly string[]): Promise<Resource> {
    const resource = await drive.lookup(segments);
    if (!resource) throw new HttpError(404, 'Not found');
    return resource;
  }

  /** The folder a new member `segments` goes into, and its name (409 when that folder is missing). */
  async function parentOf(segments: readonly string[]): Promise<{ parent: Folder; name: string }> {
    const name = segments.at(-1);
    if (name === undefined) throw new HttpError(403, 'That is the top of the drive');
    const problem = nameProblem(name);
    if (problem) throw new HttpError(400, problem);
    const parent = await drive.lookup(segments.slice(0, -1));
    if (!parent || !isFolder(parent)) throw new HttpError(409, 'The folder it goes into does not exist');
    return { parent, name };
  }

  function checkLocks(request: Request, segments: readonly string[], deep = false): void {
    if (!locks.mayWrite(lockPath(segments), tokensIn(request.headers.get('if')), deep)) throw new HttpError(423, 'Locked');
  }

  /** 412 unless the request's If header holds (RFC 4918 10.4). */
  async function checkIf(request: Request, pathname: string): Promise<void> {
    const header = request.headers.get('if');
    if (header === null) return;
    const lists = parseIf(header);
    if (!lists) throw new HttpError(400, 'The If header cannot be read');
    const holds = await ifHolds(
      lists,
      pathname,
      (path, token) => {
        const at = segmentsOf(path);
        return at !== undefined && locks.covering(lockPath(at)).some((lock) => lock.token === token);
      },
      async (path) => {
        const at = segmentsOf(path);
        const resource = at && (await drive.lookup(at));
        return resource ? etagOf(resource) : undefined;
      },
    );
    if (!holds) throw new HttpError(412, 'Precondition failed');
  }

  async function propfind(request: Request, segments: string[]): Promise<Response> {
    const depth = request.headers.get('depth') ?? 'infinity';
    if (depth !== '0' && depth !== '1') {
      return xml(403, '<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:"><D:propfind-finite-depth/></D:error>');
    }
    const wanted = parsePropfind(await xmlBody(request));
    const resource = await need(segments);
    const responses = [propResponse(resource, segments, wanted)];
    if (depth === '1' && isFolder(resource)) {
      for (const child of await drive.children(resource)) {
        if (child.name !== null) responses.push(propResponse(child, [...segments, child.name], wanted));
      }
    }
    const body = multistatus(responses);
    if (responses.length > HEAVY_ITEMS) collectSoon();
    return xml(207, body);
  }

  async function get(request: Request, segments: string[], head: boolean): Promise<Response> {
    const resource = await need(segments);
    if (isFolder(resource) || resource.id === null)
      return text(405, 'A folder has no content: list it with PROPFIND', { allow: ALLOW });
    const item = resource as RemoteItem;
    const headers: Record<string, string> = {
      'content-type': typeOf(item.name ?? ''),
      etag: etagOf(item),
      'last-modified': new Date(item.modifiedAt).toUTCString(),
      'accept-ranges': 'bytes',
    };
    let from = 0;
    let to = item.size;
    let status = 200;
    const range = (request.headers.get('range') ?? '').slice(0, 100);
    const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(range.trim());
    if (match && (match[1] || match[2]) && item.size > 0) {
      if (match[1]) {
        from = Number(match[1]);
        to = match[2] ? Math.min(Number(match[2]) + 1, item.size) : item.size;
      } else {
        from = Math.max(0, item.size - Number(match[2]));
      }
      if (from >= item.size || to <= from) return text(416, '', { 'content-range': `bytes */${item.size}` });
      status = 206;
      headers['content-range'] = `bytes ${from}-${to - 1}/${item.size}`;
    }
    headers['content-length'] = String(to - from);
    if (head) return new Response(null, { status, headers });
    const body = await decryptedRange(drive.tree.conn, item, from, to);
    if (to - from < HEAVY_BYTES) return new Response(body, { status, headers });
    return new Response(body.pipeThrough(new TransformStream({ flush: collectSoon })), { status, headers });
  }

  async function put(request: Request, segments: string[]): Promise<Response> {
    const { parent, name } = await parentOf(segments);
    const existing = await drive.child(parent, name);
    if (existing && isFolder(existing)) return text(405, 'A folder is there');
    checkLocks(request, segments);
    // Spooled to a private temporary file: memory stays bounded, and a body that breaks off
    // half-way uploads nothing.
    const dir = await mkdtemp(join(tmpdir(), 'sealbox-dav-'));
    try {
      const spooled = join(dir, 'body');
      const size = await Bun.write(spooled, new Response(request.body));
      await drive.putFile(parent, name, spooled);
      if (size >= HEAVY_BYTES) collectSoon();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    return text(existing ? 204 : 201);
  }

  async function remove(request: Request, segments: string[]): Promise<Response> {
    const resource = await need(segments);
    if (resource.id === null) return text(403, 'That is the top of the drive');
    checkLocks(request, segments, true);
    await drive.remove(resource as RemoteItem);
    locks.drop(lockPath(segments));
    return text(204);
  }

  async function mkcol(request: Request, segments: string[]): Promise<Response> {
    if ((await request.arrayBuffer()).byteLength > 0) return text(415, 'MKCOL takes no body');
    const { parent, name } = await parentOf(segments);
    if (await drive.child(parent, name)) return text(405, 'Already there');
    checkLocks(request, segments.slice(0, -1));
    await drive.makeFolder(parent, name);
    return text(201);
  }

  async function copyOrMove(request: Request, segments: string[], move: boolean): Promise<Response> {
    const destination = request.headers.get('destination');
    if (!destination) return text(400, 'Destination header needed');
    let target: string[] | undefined;
    try {
      target = segmentsOf(new URL(destination, request.url).pathname);
    } catch {
      target = undefined;
    }
    if (!target) return text(400, 'Bad Destination');
    const resource = await need(segments);
    if (resource.id === null) return text(403, 'That is the top of the drive');
    const item = resource as RemoteItem;
    const [from, to] = [lockPath(segments), lockPath(target)];
    if (from === to || to.startsWith(`${from}/`)) return text(403, 'Source and destination overlap');
    const { parent, name } = await parentOf(target);
    const there = await drive.child(parent, name);
    const overwrite = (request.headers.get('overwrite') ?? 'T').toUpperCase() !== 'F';
    if (there && !overwrite) return text(412, 'The destination exists');
    if (move) checkLocks(request, segments, true);
    // Replacing what is there changes all under it; adding a member changes only its folder.
    if (there) checkLocks(request, target, true);
    else checkLocks(request, target.slice(0, -1));
    if (there) {
      await drive.remove(there);
      locks.drop(to);
    }
    if (move) {
      await drive.move(item, parent, name);
      locks.drop(from);
    } else {
      await drive.copy(item, parent, name, request.headers.get('depth') === '0');
    }
    return text(there ? 204 : 201);
  }

  async function lock(request: Request, segments: string[]): Promise<Response> {
    const body = await xmlBody(request);
    const timeout = timeoutOf(request.headers.get('timeout'));
    const path = lockPath(segments);
    if (body.trim() === '') {
      const refreshed = locks.refresh(path, tokensIn(request.headers.get('if')), timeout);
      if (!refreshed) return text(412, 'No lock of that token here');
      const resource = await need(segments);
      const prop = `<D:lockdiscovery>${activeLockXml(refreshed, hrefOf(segments, isFolder(resource)))}</D:lockdiscovery>`;
      return xml(200, `<?xml version="1.0" encoding="utf-8"?>\n<D:prop xmlns:D="DAV:">${prop}</D:prop>`);
    }
    const info = parseLockInfo(body);
    const depth = request.headers.get('depth') ?? 'infinity';
    if (depth !== '0' && depth !== 'infinity') return text(400, 'Depth must be 0 or infinity');
    let resource = await drive.lookup(segments);
    let created = false;
    if (!resource) {
      // A lock on an unmapped URL makes an empty file there (RFC 4918 7.3).
      const { parent, name } = await parentOf(segments);
      checkLocks(request, segments);
      const dir = await mkdtemp(join(tmpdir(), 'sealbox-dav-'));
      try {
        await Bun.write(join(dir, 'empty'), '');
        await drive.putFile(parent, name, join(dir, 'empty'));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      resource = await need(segments);
      created = true;
    }
    const made = locks.lock(path, depth === 'infinity' && isFolder(resource), info.exclusive, info.owner, timeout);
    if (!made) return text(423, 'Locked');
    const prop = `<D:lockdiscovery>${activeLockXml(made, hrefOf(segments, isFolder(resource)))}</D:lockdiscovery>`;
    return xml(created ? 201 : 200, `<?xml version="1.0" encoding="utf-8"?>\n<D:prop xmlns:D="DAV:">${prop}</D:prop>`, {
      'lock-token': `<${made.token}>`,
    });
  }

  async function unlock(request: Request, segments: string[]): Promise<Response> {
    const token = /^<(opaquelocktoken:[0-9a-f-]{36})>$/.exec((request.headers.get('lock-token') ?? '').trim())?.[1];
    if (!token) return text(400, 'Lock-Token header needed');
    return locks.unlock(lockPath(segments), token) ? text(204) : text(409, 'No lock of that token here');
  }

  async function proppatch(request: Request, segments: string[]): Promise<Response> {
    const names: PropName[] = parseProppatch(await xmlBody(request));
    const resource = await need(segments);
    checkLocks(request, segments);
    // The drive keeps no properties of its own making (they would not be encrypted): refused.
    const href = hrefOf(segments, isFolder(resource));
    return xml(207, multistatus([{ href, propstats: [{ status: 403, props: names.map((name) => propXml(name, '')) }] }]));
  }

  const server = Bun.serve({
    hostname: '127.0.0.1',
    port,
    // Bodies stream to disk (PUT): no cap here beyond the server's own file size limit.
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    idleTimeout: 255,
    async fetch(request) {
      const url = new URL(request.url);
      const host = request.headers.get('host') ?? '';
      if (![`127.0.0.1:${server.port}`, `localhost:${server.port}`].includes(host)) return text(403, 'Unknown host');
      const auth = request.headers.get('authorization') ?? '';
      const given = auth.startsWith('Basic ')
        ? Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':').slice(1).join(':')
        : '';
      if (!constantTimeEqual(given, password))
        return text(401, 'Password needed', { 'www-authenticate': 'Basic realm="Sealbox", charset="UTF-8"' });
      const segments = segmentsOf(url.pathname);
      if (!segments) return text(400, 'Bad path');
      try {
        if (request.method !== 'OPTIONS') await checkIf(request, url.pathname);
        switch (request.method) {
          case 'OPTIONS':
            return text(200, '', { dav: '1, 2', allow: ALLOW, 'ms-author-via': 'DAV' });
          case 'PROPFIND':
            return await propfind(request, segments);
          case 'GET':
          case 'HEAD':
            return await get(request, segments, request.method === 'HEAD');
          case 'PUT':
            return await put(request, segments);
          case 'DELETE':
            return await remove(request, segments);
          case 'MKCOL':
            return await mkcol(request, segments);
          case 'COPY':
          case 'MOVE':
            return await copyOrMove(request, segments, request.method === 'MOVE');
          case 'LOCK':
            return await lock(request, segments);
          case 'UNLOCK':
            return await unlock(request, segments);
          case 'PROPPATCH':
            return await proppatch(request, segments);
          default:
            return text(405, 'Method not allowed', { allow: ALLOW });
        }
      } catch (error) {
        const status = statusOf(error);
        if (status >= 500)
          process.stderr.write(`sealbox webdav: ${request.method} ${url.pathname}: ${(error as Error)?.message}\n`);
        return text(status, (error as Error)?.message ?? 'Failed');
      }
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, port: server.port, stop: () => server.stop(true) };
}
