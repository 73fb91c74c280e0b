import { afterEach, describe, expect, test, vi } from 'vitest';
import type { ItemView, ServerItem } from '../../model/items.ts';
import { walkOwnTree } from './tree-walk.ts';

const { overriding } = await vi.hoisted(() => import('../../test/mock-module.ts'));
const tree = vi.hoisted(() => vi.fn());
const openItems = vi.hoisted(() => vi.fn());
vi.mock('../api.ts', overriding({ bytes: { tree } }));
vi.mock('../items.ts', overriding({ openItems }));

const item = (id: string, parentId: string | null) => ({ id, parentId }) as ServerItem;
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });

/** A server of these pages: each answers the cursor of the next ("p1", "p2", ...). */
function serve(pages: ServerItem[][]) {
  tree.mockImplementation(async ({ after }: { after?: string }) => {
    const n = after === undefined ? 0 : Number(after.slice(1));
    return json({
      files: pages[n],
      next: n + 1 < pages.length ? `p${n + 1}` : null,
      ...(n === 0 ? { total: pages.flat().length } : {}),
    });
  });
}

/** Opens every item it is given except `failing`, and records each batch. */
function opening(failing: string[] = []) {
  const batches: string[][] = [];
  openItems.mockImplementation(async (_scope: unknown, items: ServerItem[]) => {
    batches.push(items.map((i) => i.id));
    return items.map((i) => ({ id: i.id, parentId: i.parentId, decrypted: !failing.includes(i.id) }) as ItemView);
  });
  return batches;
}

afterEach(() => {
  tree.mockReset();
  openItems.mockReset();
});

describe('walking the own tree in pages', () => {
  test('each cursor is followed, a child before its folder waits for it, progress reaches the total', async () => {
    serve([[item('a', null), item('moved', 'late')], [item('b', 'a')], [item('late', 'a')]]);
    const batches = opening();
    const progress: Array<[number, number]> = [];
    const times = {};
    const views = await walkOwnTree((handled, total) => progress.push([handled, total]), times);
    expect(tree.mock.calls.map(([query]) => query.after)).toEqual([undefined, 'p1', 'p2']);
    expect(batches).toEqual([['a'], ['b'], ['late', 'moved']]);
    expect(views.map((v) => v.id).sort()).toEqual(['a', 'b', 'late', 'moved']);
    expect(progress).toEqual([
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
    expect(times).toMatchObject({ pages: 3, fetch: expect.any(Number), parse: expect.any(Number), open: expect.any(Number) });
  });

  test('what sits under a folder that does not open, or never comes, is left out', async () => {
    serve([
      [item('a', null), item('bad', 'a')],
      [item('under-bad', 'bad'), item('in-bin', 'binned')],
    ]);
    const batches = opening(['bad']);
    const views = await walkOwnTree();
    expect(batches).toEqual([['a', 'bad']]);
    expect(views.map((v) => [v.id, v.decrypted])).toEqual([
      ['a', true],
      ['bad', false],
    ]);
  });

  test('an empty page ends the walk, whatever cursor it gives', async () => {
    tree.mockResolvedValue(json({ files: [], next: 'p0' }));
    opening();
    expect(await walkOwnTree()).toEqual([]);
    expect(tree).toHaveBeenCalledTimes(1);
  });

  test('a failed or malformed page fails the walk with a coded error', async () => {
    opening();
    for (const [answer, code] of [
      [new Response('nope', { status: 500 }), 'HTTP_500'],
      [new Response('{not json', { status: 200 }), 'BAD_PAGE'],
      [json({ files: 'x', next: null }), 'BAD_PAGE'],
      [json({ files: [], next: 5 }), 'BAD_PAGE'],
    ] as const) {
      tree.mockResolvedValueOnce(answer);
      await expect(walkOwnTree()).rejects.toMatchObject({ code });
    }
  });
});
