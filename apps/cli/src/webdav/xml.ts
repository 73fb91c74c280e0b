/**
 * The XML of WebDAV (RFC 4918) the bridge reads and writes. Bodies are parsed with
 * fast-xml-parser; namespace prefixes are resolved here (the parser keeps them as written), so
 * `<D:prop xmlns:D="DAV:">` and `<prop xmlns="DAV:">` read alike. Answers are built as text with
 * every name and value escaped.
 */
import { XMLParser } from 'fast-xml-parser';

export const DAV = 'DAV:';

/** A property's qualified name. */
export interface PropName {
  ns: string;
  name: string;
}

type XmlNode = Record<string, unknown>;

const parser = new XMLParser({ ignoreAttributes: false, processEntities: true, parseTagValue: false, trimValues: true });

/** The element children of `node` with their namespaces resolved, given the prefixes in scope. */
function children(
  node: unknown,
  scope: Map<string, string>,
): Array<{ ns: string; name: string; node: unknown; scope: Map<string, string> }> {
  if (typeof node !== 'object' || node === null) return [];
  const out: Array<{ ns: string; name: string; node: unknown; scope: Map<string, string> }> = [];
  for (const [key, value] of Object.entries(node as XmlNode)) {
    if (key.startsWith('@_') || key === '#text' || key.startsWith('?')) continue;
    for (const one of Array.isArray(value) ? value : [value]) {
      const inner = new Map(scope);
      if (typeof one === 'object' && one !== null) {
        for (const [attr, uri] of Object.entries(one as XmlNode)) {
          if (attr === '@_xmlns') inner.set('', String(uri));
          else if (attr.startsWith('@_xmlns:')) {
            // Namespaces in XML 1.0: a prefix cannot be bound to the empty name.
            if (String(uri) === '') throw new BadXml(`prefix ${attr.slice(8)} bound to nothing`);
            inner.set(attr.slice(8), String(uri));
          }
        }
      }
      const colon = key.indexOf(':');
      const prefix = colon < 0 ? '' : key.slice(0, colon);
      // A prefix never declared is not well-formed XML with namespaces (RFC 4918 asks for 400).
      if (prefix !== '' && !inner.has(prefix)) throw new BadXml(`undeclared prefix ${prefix}`);
      out.push({ ns: inner.get(prefix) ?? '', name: colon < 0 ? key : key.slice(colon + 1), node: one, scope: inner });
    }
  }
  return out;
}

export class BadXml extends Error {}

function parse(body: string): ReturnType<typeof children> {
  try {
    return children(parser.parse(body, true), new Map());
  } catch (error) {
    throw error instanceof BadXml ? error : new BadXml('malformed XML');
  }
}

export type PropfindRequest = { kind: 'allprop' } | { kind: 'propname' } | { kind: 'prop'; props: PropName[] };

/** A PROPFIND body (an empty one asks for all properties, RFC 4918 9.1). */
export function parsePropfind(body: string): PropfindRequest {
  if (body.trim() === '') return { kind: 'allprop' };
  const root = parse(body).find((element) => element.ns === DAV && element.name === 'propfind');
  if (!root) throw new BadXml('not a propfind');
  for (const element of children(root.node, root.scope)) {
    if (element.ns !== DAV) continue;
    if (element.name === 'allprop') return { kind: 'allprop' };
    if (element.name === 'propname') return { kind: 'propname' };
    if (element.name === 'prop')
      return { kind: 'prop', props: children(element.node, element.scope).map(({ ns, name }) => ({ ns, name })) };
  }
  throw new BadXml('propfind names nothing');
}

/** The properties a PROPPATCH sets or removes (the bridge stores none of them). */
export function parseProppatch(body: string): PropName[] {
  const root = parse(body).find((element) => element.ns === DAV && element.name === 'propertyupdate');
  if (!root) throw new BadXml('not a propertyupdate');
  const names: PropName[] = [];
  for (const change of children(root.node, root.scope)) {
    if (change.ns !== DAV || (change.name !== 'set' && change.name !== 'remove')) continue;
    for (const prop of children(change.node, change.scope)) {
      if (prop.ns === DAV && prop.name === 'prop')
        names.push(...children(prop.node, prop.scope).map(({ ns, name }) => ({ ns, name })));
    }
  }
  return names;
}

/** A LOCK body: its scope and its owner, kept as text to give back. */
export function parseLockInfo(body: string): { exclusive: boolean; owner: string } {
  const root = parse(body).find((element) => element.ns === DAV && element.name === 'lockinfo');
  if (!root) throw new BadXml('not a lockinfo');
  let exclusive = true;
  let owner = '';
  for (const element of children(root.node, root.scope)) {
    if (element.ns !== DAV) continue;
    if (element.name === 'lockscope')
      exclusive = children(element.node, element.scope).some((scope) => scope.name === 'exclusive');
    if (element.name === 'owner') owner = ownerText(element.node);
  }
  return { exclusive, owner };
}

function ownerText(node: unknown): string {
  if (typeof node === 'string') return node;
  if (typeof node !== 'object' || node === null) return '';
  const record = node as XmlNode;
  if (typeof record['#text'] === 'string') return record['#text'];
  for (const [key, value] of Object.entries(record))
    if (!key.startsWith('@_')) return ownerText(Array.isArray(value) ? value[0] : value);
  return '';
}

export function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}

/** One property element, `value` already XML (or '' for an empty one). */
export function propXml({ ns, name }: PropName, value: string): string {
  if (ns === DAV) return value === '' ? `<D:${name}/>` : `<D:${name}>${value}</D:${name}>`;
  const attr = ns === '' ? ' xmlns=""' : ` xmlns:X="${escapeXml(ns)}"`;
  const tag = ns === '' ? name : `X:${name}`;
  return value === '' ? `<${tag}${attr}/>` : `<${tag}${attr}>${value}</${tag}>`;
}

export interface Propstat {
  status: number;
  props: string[];
}

const REASONS: Record<number, string> = { 200: 'OK', 403: 'Forbidden', 404: 'Not Found', 424: 'Failed Dependency' };

/** A 207 Multi-Status body: each resource's href and its propstats (or a bare status). */
export function multistatus(responses: Array<{ href: string; propstats?: Propstat[]; status?: number }>): string {
  const parts = responses.map(({ href, propstats, status }) => {
    const inner = propstats
      ? propstats
          .filter((stat) => stat.props.length > 0)
          .map(
            (stat) =>
              `<D:propstat><D:prop>${stat.props.join('')}</D:prop><D:status>HTTP/1.1 ${stat.status} ${REASONS[stat.status] ?? ''}</D:status></D:propstat>`,
          )
          .join('')
      : `<D:status>HTTP/1.1 ${status} ${REASONS[status ?? 200] ?? ''}</D:status>`;
    return `<D:response><D:href>${escapeXml(href)}</D:href>${inner}</D:response>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">${parts.join('')}</D:multistatus>`;
}
