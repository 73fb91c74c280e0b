import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { DuplicateNameDialog, askDuplicate } from './DuplicateNameDialog.tsx';

afterEach(cleanup);

const question = (name: string) => ({ name, canReplace: true, isDirectory: false, remaining: 1 });

describe('DuplicateNameDialog', () => {
  it('asks one question at a time: a second asked meanwhile waits, and each gets its own answer', async () => {
    render(<DuplicateNameDialog />);
    let first: Promise<unknown> | undefined;
    let second: Promise<unknown> | undefined;
    await act(async () => {
      first = askDuplicate(question('a.txt'));
      second = askDuplicate(question('b.txt'));
    });
    expect(screen.getByText('a.txt')).toBeTruthy();
    expect(screen.queryByText('b.txt')).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Replace' })));
    expect(await first).toEqual({ choice: 'replace', all: false });
    await screen.findByText('b.txt');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Keep both' })));
    expect(await second).toEqual({ choice: 'keep', all: false });
  });
});
