import { describe, expect, it } from 'bun:test';
import { NAME_TEXT, findNamed, freeName, isNameTaken, nameProblem, nameTakenText } from './names.ts';

describe('nameProblem', () => {
  it('accepts ordinary names, dots inside them and leading dots', () => {
    for (const name of ['Report.pdf', 'a', '.env', 'v1.2.3', 'My  folder', 'naïve résumé', '..hidden']) {
      expect(nameProblem(name)).toBeUndefined();
    }
  });

  it('refuses empty and whitespace-only names', () => {
    expect(nameProblem('')).toBe(NAME_TEXT.blank);
    expect(nameProblem('   ')).toBe(NAME_TEXT.blank);
  });

  it('refuses slashes and backslashes', () => {
    expect(nameProblem('a/b')).toBe(NAME_TEXT.slash);
    expect(nameProblem('a\\b')).toBe(NAME_TEXT.slash);
    expect(nameProblem('/')).toBe(NAME_TEXT.slash);
  });

  it('refuses control characters U+0000-U+001F and U+007F, even at the edges trimming removes', () => {
    for (const c of ['\u0000', '\u0001', '\t', '\n', '\u001f', '\u007f']) {
      expect(nameProblem(`a${c}b`)).toBe(NAME_TEXT.control);
    }
    expect(nameProblem('name\n')).toBe(NAME_TEXT.control);
    expect(nameProblem('a\u0080b')).toBeUndefined();
  });

  it('refuses names made only of dots', () => {
    for (const name of ['.', '..', '...', ' .. ']) expect(nameProblem(name)).toBe(NAME_TEXT.dots);
  });
});

describe('isNameTaken', () => {
  const names = ['Report.pdf', 'Photos', null, 'caf\u00e9'];

  it('finds a name already used, ignoring case, outer spaces and Unicode form', () => {
    expect(isNameTaken('Report.pdf', names)).toBe(true);
    expect(isNameTaken('report.PDF', names)).toBe(true);
    expect(isNameTaken('  photos ', names)).toBe(true);
    expect(isNameTaken('cafe\u0301', names)).toBe(true);
  });

  it('does not match other names or undecryptable ones', () => {
    expect(isNameTaken('Report', names)).toBe(false);
    expect(isNameTaken('Photos 2', names)).toBe(false);
    expect(isNameTaken('', [null])).toBe(false);
  });
});

describe('nameTakenText', () => {
  it('names the kind of the item already there', () => {
    expect(nameTakenText(' x ', true)).toBe('A folder named "x" already exists here.');
    expect(nameTakenText('x.txt', false)).toBe('A file named "x.txt" already exists here.');
  });
});

describe('freeName', () => {
  it('keeps a free name and numbers a taken one before its extension', () => {
    expect(freeName('a.txt', ['b.txt'])).toBe('a.txt');
    expect(freeName('a.txt', ['A.txt'])).toBe('a (1).txt');
    expect(freeName('a.txt', ['a.txt', 'a (1).txt', 'a (2).TXT'])).toBe('a (3).txt');
    expect(freeName('Photos', ['photos'])).toBe('Photos (1)');
    expect(freeName('.env', ['.env'])).toBe('.env (1)');
    expect(freeName('archive.tar.gz', ['archive.tar.gz'])).toBe('archive.tar (1).gz');
  });

  it('goes on counting from a name already numbered, as Drive and desktop file managers do', () => {
    expect(freeName('dup (1).txt', ['dup.txt', 'dup (1).txt'])).toBe('dup (2).txt');
    expect(freeName('dup (1).txt', ['dup (1).txt', 'dup (2).txt'])).toBe('dup (3).txt');
    expect(freeName('Photos (4)', ['Photos (4)'])).toBe('Photos (5)');
    // Not a number of ours: kept as part of the name.
    expect(freeName('(1).txt', ['(1).txt'])).toBe('(1) (1).txt');
    expect(freeName('dup (x).txt', ['dup (x).txt'])).toBe('dup (x) (1).txt');
  });
});

describe('findNamed', () => {
  it('finds the item holding a name, as isNameTaken compares', () => {
    const items = [
      { name: null, isDirectory: false },
      { name: 'Photos', isDirectory: true },
    ];
    expect(findNamed('PHOTOS ', items)).toBe(items[1]);
    expect(findNamed('Photo', items)).toBeUndefined();
  });
});
