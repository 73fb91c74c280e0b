import { afterAll, beforeAll } from 'bun:test';
import { generate } from 'otplib';
import {
  Browser,
  openFilesHarness,
  postFile,
  postFolder,
  type Encrypted,
  type FilesHarness,
  type Made,
  type MakeFilesEnv,
} from '../files/harness.ts';
import { anonymous, keyedUser, makeLink, sharingAccount, shareWith, type KeyedUser } from '../sharing/harness.ts';
import { callsTo } from './calls.ts';
import type { Caller, Row } from './outcomes.ts';

/**
 * What the rows and the tests of the route matrix (route-matrix.suite.ts) share: one harness,
 * alice's shared folder W and a caller of every kind, made before the first test, and the rows.
 */
export interface RouteMatrix {
  h: FilesHarness;
  alice: KeyedUser;
  erin: KeyedUser;
  /** Has an editor entry on W. */
  editorUser: KeyedUser;
  /** alice's W/{inner, doc}, shared with the editor, the viewer and (revoked) another user. */
  W: Made;
  inner: Made;
  doc: Encrypted;
  viewerLink: string;
  passwordLink: string;
  /** A user whose credentials the login row uses. */
  spare: KeyedUser;
  callers: Caller[];
  rows: Row[];
  send: ReturnType<typeof callsTo>['send'];
}

/**
 * Opens the harness before the suite's first test, makes the fixture and its callers, then the
 * rows (`buildRows`, which may read everything made before it); closes all after the last test.
 */
export function openRouteMatrix(makeEnv: MakeFilesEnv, buildRows: (matrix: RouteMatrix) => Row[]): RouteMatrix {
  const matrix = { callers: [], rows: [] } as unknown as RouteMatrix;
  const calls = callsTo(matrix);
  matrix.send = calls.send;
  beforeAll(async () => {
    const h = await openFilesHarness(makeEnv);
    matrix.h = h;
    const alice = await keyedUser(h);
    const [editor, viewer, revoked, stranger] = [await keyedUser(h), await keyedUser(h), await keyedUser(h), await keyedUser(h)];
    matrix.alice = alice;
    matrix.erin = await keyedUser(h);
    matrix.editorUser = editor;
    matrix.spare = await keyedUser(h);
    const W = await postFolder(alice, null, 'W');
    const inner = await postFolder(alice, W, 'inner');
    const doc = await postFile(alice, W, 500, 11, 'doc');
    Object.assign(matrix, { W, inner, doc });
    await shareWith(alice, W, editor.id, true);
    await shareWith(alice, W, viewer.id, false);
    await shareWith(alice, W, revoked.id, true);
    const revoke = await alice.browser.call('DELETE', '/api/shared', {
      json: { type: 'user', fileId: W.id, userId: revoked.id },
    });
    if (revoke.status !== 204) throw new Error(`revoke failed: ${revoke.status}`);
    const expired = await makeLink(alice, W, { edit: true, expires: 1 });
    h.clock.advance(2000);
    matrix.viewerLink = await makeLink(alice, W);
    matrix.passwordLink = await makeLink(alice, W, { edit: true, password: 'pw' });

    // A user with TOTP on, half logged in: the password was right, the code not sent yet.
    const tina = await keyedUser(h);
    const { registration } = await sharingAccount();
    const setup = await tina.browser.put('/api/totp', { action: 'setup', password: registration.password });
    const code = await generate({ secret: setup.body.secret, epoch: Math.floor(h.clock.now / 1000) });
    if ((await tina.browser.put('/api/totp', { action: 'confirm', code })).status !== 200) throw new Error('TOTP confirm');
    const pending = new Browser(h.app);
    if ((await pending.post('/api/login', { username: tina.username, password: registration.password })).status !== 307)
      throw new Error('TOTP-pending login');

    matrix.callers.push(
      { name: 'owner', browser: alice.browser },
      { name: 'editor', browser: editor.browser },
      { name: 'viewer', browser: viewer.browser },
      { name: 'revoked user', browser: revoked.browser },
      { name: 'stranger', browser: stranger.browser },
      { name: 'viewer link', browser: anonymous(h), linkId: matrix.viewerLink },
      { name: 'editor link', browser: anonymous(h), linkId: await makeLink(alice, W, { edit: true }) },
      { name: 'expired link', browser: anonymous(h), linkId: expired },
      { name: 'password link without its proof', browser: anonymous(h), linkId: matrix.passwordLink },
      { name: 'link used outside its subtree', browser: anonymous(h), linkId: await makeLink(alice, inner, { edit: true }) },
      { name: 'no session', browser: anonymous(h) },
      { name: 'TOTP-pending session', browser: pending },
    );
    matrix.rows.push(...buildRows(matrix));
  }, 60_000);
  afterAll(async () => {
    await calls.stop();
    await matrix.h?.cleanup();
  });
  return matrix;
}
