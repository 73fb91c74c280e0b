import { describe, expect, it } from 'vitest';
import { planUploads, type ClashAnswer, type ClashQuestion } from './upload-names.ts';

const file = (name: string) => new File([name], name);
const existing = [
  { id: 'old-a', name: 'a.txt', isDirectory: false, editPermission: true },
  { id: 'old-notes', name: 'notes', isDirectory: false, editPermission: true },
  { id: 'folder', name: 'Photos', isDirectory: true, editPermission: true },
  { id: 'dot', name: '.env', isDirectory: false, editPermission: true },
];

/** Answers every question with `answer`, recording what was asked. */
function answering(answer: ClashAnswer) {
  const asked: ClashQuestion[] = [];
  const ask = async (q: ClashQuestion) => {
    asked.push(q);
    return answer;
  };
  return { asked, ask };
}

const shown = (plans: Awaited<ReturnType<typeof planUploads>>) => plans.map((p) => p.name ?? p.file.name);

describe('duplicate names on upload', () => {
  it('asks nothing when every name is free', async () => {
    const { asked, ask } = answering({ choice: 'skip', all: false });
    const plans = await planUploads([file('b.txt'), file('c')], existing, [], ask);
    expect(shown(plans)).toEqual(['b.txt', 'c']);
    expect(asked).toEqual([]);
  });

  it('keep both takes the next free number, with or without an extension, and for dotfiles', async () => {
    const { ask } = answering({ choice: 'keep', all: false });
    const taken = [...existing, { id: 'a1', name: 'a (1).txt', isDirectory: false, editPermission: true }];
    const plans = await planUploads([file('A.txt'), file('a.txt'), file('notes'), file('.env')], taken, [], ask);
    // Case does not make a name free (Windows and macOS would clash); the second a.txt sees the first's new name.
    expect(shown(plans)).toEqual(['A (2).txt', 'a (3).txt', 'notes (1)', '.env (1)']);
  });

  it('replace makes the file a new version of the old one; a folder is never replaced', async () => {
    const { asked, ask } = answering({ choice: 'replace', all: false });
    const plans = await planUploads([file('a.txt'), file('Photos')], existing, [], ask);
    expect(plans.map((p) => [p.name ?? p.file.name, p.versionOf])).toEqual([
      ['a.txt', 'old-a'],
      ['Photos (1)', undefined],
    ]);
    expect(asked.map((q) => [q.name, q.canReplace, q.isDirectory, q.remaining])).toEqual([
      ['a.txt', true, false, 2],
      ['Photos', false, true, 1],
    ]);
  });

  it('skip leaves the file out; "apply to all" answers the remaining clashes', async () => {
    const { asked, ask } = answering({ choice: 'skip', all: true });
    const plans = await planUploads([file('a.txt'), file('new.txt'), file('notes')], existing, [], ask);
    expect(shown(plans)).toEqual(['new.txt']);
    expect(asked).toHaveLength(1);
  });

  it('a name an upload under way is taking counts as taken, but cannot be replaced', async () => {
    const { asked, ask } = answering({ choice: 'replace', all: false });
    const plans = await planUploads([file('late.txt')], existing, ['late.txt'], ask);
    expect(shown(plans)).toEqual(['late (1).txt']);
    expect(asked[0]?.canReplace).toBe(false);
  });

  it('a file this user may not change is not offered for Replace (it would lose its shares and links)', async () => {
    const { asked, ask } = answering({ choice: 'replace', all: false });
    const theirs = [{ id: 'theirs', name: 'shared.txt', isDirectory: false, editPermission: false }];
    const plans = await planUploads([file('shared.txt')], theirs, [], ask);
    expect(asked[0]?.canReplace).toBe(false);
    expect(plans.map((p) => [p.name ?? p.file.name, p.versionOf])).toEqual([['shared (1).txt', undefined]]);
  });

  it('a replace picked under another case keeps the old name: a version makes no new name', async () => {
    const { ask } = answering({ choice: 'replace', all: false });
    const plans = await planUploads([file('A.TXT')], existing, [], ask);
    expect(plans.map((p) => [p.name, p.versionOf])).toEqual([['a.txt', 'old-a']]);
  });
});
