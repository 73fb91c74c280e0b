/** `share` and `link` (docs/cli.md "Sharing"): the crypto in sharing.ts, the output here. */
import { CliError, EXIT } from './cli-error.ts';
import { type Context, openAccount } from './commands.ts';
import { pathSegments, showPath } from './remote-tree.ts';
import { readLinkPassword } from './secrets.ts';
import { expirySeconds, findUser, makeLink, shareWithUser } from './sharing.ts';

async function ownItem(ctx: Context, path: string) {
  const account = await openAccount(ctx);
  const item = await account.tree.item(path);
  if (!item.key) throw new CliError(`${path}: its key did not open.`, EXIT.integrity);
  return { ...account, item: { ...item, key: item.key }, shown: showPath(pathSegments(path)) };
}

export async function shareCommand(ctx: Context, path: string, username: string, edit: boolean): Promise<void> {
  const { session, keys, tree, item, shown } = await ownItem(ctx, path);
  const user = await findUser(tree.conn, username);
  const pin = await shareWithUser(tree.conn, { userId: session.userId, keys }, item, user, edit);
  const role = edit ? 'can edit' : 'view only';
  if (ctx.out.json) {
    ctx.out.data({
      path: shown,
      user: user.username,
      userId: user.id,
      edit,
      fingerprint: pin.fingerprint,
      pinnedNow: pin.pinnedNow,
    });
    return;
  }
  ctx.out.text(`Shared ${shown} with ${user.username} (${role}).`);
  if (pin.pinnedNow) {
    ctx.out.text(`First share with ${user.username}: their keys are now pinned. Fingerprint ${pin.fingerprint}`);
    ctx.out.text(`Compare it with what ${user.username} sees on their Profile.`);
  }
}

export async function linkCommand(
  ctx: Context,
  path: string,
  options: { expires: string; password: boolean; edit: boolean },
): Promise<void> {
  const expires = expirySeconds(options.expires);
  const password = options.password ? await readLinkPassword() : null;
  if (password !== null && password.trim() === '') throw new CliError('A link password cannot be empty.', EXIT.usage);
  const { tree, item, shown } = await ownItem(ctx, path);
  const { url, link } = await makeLink(tree.conn, item, { expires, password, edit: options.edit });
  if (ctx.out.json) ctx.out.data({ path: shown, url, ...link });
  else ctx.out.text(url);
}
