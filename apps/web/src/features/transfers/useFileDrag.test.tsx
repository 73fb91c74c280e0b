import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useFileDrag } from './useFileDrag.ts';

afterEach(cleanup);

function Target({ onFiles }: { onFiles: (files: File[]) => void }) {
  const { dragging, handlers } = useFileDrag(onFiles);
  return (
    <div data-testid="target" data-dragging={dragging} {...handlers}>
      <p data-testid="child">child</p>
    </div>
  );
}

const withFiles = (files: File[] = []) => ({ dataTransfer: { types: ['Files'], files } });
const withText = { dataTransfer: { types: ['text/plain'], files: [] } };
const dragging = () => screen.getByTestId('target').dataset.dragging;

describe('useFileDrag', () => {
  it('stays active while files are dragged across its children, and hands over the dropped files', () => {
    const onFiles = vi.fn();
    render(<Target onFiles={onFiles} />);
    const target = screen.getByTestId('target');
    const child = screen.getByTestId('child');
    fireEvent.dragEnter(target, withFiles());
    fireEvent.dragEnter(child, withFiles());
    // Leaving the target for its child: still over the target.
    fireEvent.dragLeave(target, { ...withFiles(), relatedTarget: child });
    expect(dragging()).toBe('true');
    fireEvent.dragLeave(child, withFiles());
    expect(dragging()).toBe('false');

    const file = new File(['x'], 'x.txt');
    fireEvent.dragEnter(child, withFiles());
    fireEvent.drop(child, withFiles([file]));
    expect(dragging()).toBe('false');
    expect(onFiles).toHaveBeenCalledWith([file]);
  });

  it('ignores a drag that carries no files (a link or text)', () => {
    const onFiles = vi.fn();
    render(<Target onFiles={onFiles} />);
    fireEvent.dragEnter(screen.getByTestId('target'), withText);
    expect(dragging()).toBe('false');
    fireEvent.drop(screen.getByTestId('target'), withText);
    expect(onFiles).not.toHaveBeenCalled();
  });
});
