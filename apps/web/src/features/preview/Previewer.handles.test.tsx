import { afterEach, describe, expect, it, vi } from 'vitest';
import { OWN_SCOPE } from '../../model/browse-scope.ts';
import { cleanup, render, screen } from '@testing-library/react';
import type { RendererProps } from './types.ts';

const seen = vi.hoisted(() => [] as RendererProps[]);
vi.mock('./renderers/TextView.tsx', () => ({
  TextView: (props: RendererProps) => {
    seen.push(props);
    return <p>text view</p>;
  },
}));
vi.mock('../../crypto/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../crypto/client.ts')>()),
  cryptoWorker: { call: vi.fn() },
}));

const { Previewer } = await import('./Previewer.tsx');

afterEach(cleanup);

const item = (name = 'notes.txt') => ({
  id: '00000000-0000-4000-8000-000000000001',
  name,
  mimeType: 'text/plain',
  extension: 'txt',
  size: 5,
  isDirectory: false,
  decrypted: true,
});

describe('Previewer handles', () => {
  it('stay the same when the file is listed again unchanged (a refresh never reloads a view)', async () => {
    const { rerender } = render(
      <Previewer source={{ kind: 'item', item: item(), scope: OWN_SCOPE }} onClose={() => undefined} />,
    );
    await screen.findByText('text view');
    const first = seen.at(-1)!;
    rerender(<Previewer source={{ kind: 'item', item: item(), scope: OWN_SCOPE }} onClose={() => undefined} />);
    const again = seen.at(-1)!;
    expect(again.blob).toBe(first.blob);
    expect(again.objectUrl).toBe(first.objectUrl);
    expect(again.head).toBe(first.head);
    expect(again.file).toBe(first.file);
    // Renamed: the view hears of it.
    rerender(<Previewer source={{ kind: 'item', item: item('renamed.txt'), scope: OWN_SCOPE }} onClose={() => undefined} />);
    expect(seen.at(-1)!.file.name).toBe('renamed.txt');
  });
});
