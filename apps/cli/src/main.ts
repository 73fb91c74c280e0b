#!/usr/bin/env bun
/**
 * `sealbox`, the command-line client (docs/cli.md): parses the command line, runs one command,
 * and exits with docs/cli.md's exit codes. Errors are one line on stderr, or with --json one
 * `{ "error", "exitCode" }` document on stdout.
 */
import { parseArgs } from 'node:util';
import { CliError, EXIT } from './cli-error.ts';
import {
  type Context,
  type Output,
  keyringCommand,
  lsCommand,
  loginCommand,
  logoutCommand,
  mkdirCommand,
  treeCommand,
  whoamiCommand,
} from './commands.ts';
import { mvCommand, rmCommand } from './change-commands.ts';
import { linkCommand, shareCommand } from './share-commands.ts';
import { getCommand, putCommand } from './transfer-commands.ts';
import { webdavCommand } from './webdav/command.ts';

const USAGE = `Usage: sealbox <command> [options]

Commands:
  login <server-url> <username>   sign in (password prompted, or SEALBOX_PASSWORD, or --password-stdin)
  logout                          end the session and forget it
  whoami                          who is signed in, and where
  ls [-l] [path]                  list a folder (names as you see them in the web app);
                                  shared: lists what others shared with you, shared:<name>/... goes in
                                  (ls, tree and get take such paths)
  tree [path]                     list a folder and everything under it
  mkdir [-p] <path>...            make folders (-p: with missing parents, no error if there)
  put <local>... <remote>         upload files and folders (a name already used by a file: a new version);
                                  a put stopped half-way continues where it stopped when run again
  get [-f] <remote>... <local>    download files and folders (-f: overwrite local files);
                                  a get stopped half-way continues when run again
  get <link-url> <local>          download what a share link opens (no account needed)
  share <remote> --with <user> [--edit]
                                  share with a user (their keys pinned on first use)
  link <remote> [--expires 7d|never] [--password] [--edit]
                                  make a share link and print its URL (--password: asked for)
  keyring save|forget             keep the keys sealed under a passphrase of your own, so commands
                                  ask for it instead of the password (SEALBOX_KEYRING_PASSPHRASE)
  webdav [--port N]               serve the drive over WebDAV on 127.0.0.1 (rclone, file managers)
  mv <remote>... <remote>         move into a folder, or (one item) move and rename
  rm [-r] <remote>...             delete (to the trash, when the server keeps one; -r: folders)

Options:
  --json             answer one JSON document (errors too), for scripts
  --password-stdin   read the password from standard input
  -h, --help         this text

Exit codes: 0 ok, 1 failed, 2 usage, 3 not signed in or wrong password, 4 not found,
5 ambiguous or taken name, 6 server unreachable, 7 integrity (see docs/cli.md).`;

function output(json: boolean): Output {
  return {
    json,
    text: (line) => process.stdout.write(`${line}\n`),
    data: (value) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`),
  };
}

function needs(positionals: string[], count: number, usage: string): void {
  if (positionals.length < count) throw new CliError(`Usage: sealbox ${usage}`, EXIT.usage);
}

export async function run(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const out = output(json);
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean' },
        'password-stdin': { type: 'boolean' },
        long: { type: 'boolean', short: 'l' },
        parents: { type: 'boolean', short: 'p' },
        force: { type: 'boolean', short: 'f' },
        recursive: { type: 'boolean', short: 'r' },
        with: { type: 'string' },
        edit: { type: 'boolean' },
        expires: { type: 'string' },
        password: { type: 'boolean' },
        port: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    const [command, ...rest] = positionals;
    if (values.help || command === undefined || command === 'help') {
      process.stdout.write(`${USAGE}\n`);
      return command === undefined && !values.help ? EXIT.usage : EXIT.ok;
    }
    const ctx: Context = { out, passwordStdin: values['password-stdin'] };
    switch (command) {
      case 'login':
        needs(rest, 2, 'login <server-url> <username>');
        await loginCommand(ctx, rest[0]!, rest[1]!);
        break;
      case 'logout':
        await logoutCommand(ctx);
        break;
      case 'whoami':
        await whoamiCommand(ctx);
        break;
      case 'ls':
        await lsCommand(ctx, rest[0] ?? '/', values.long ?? false);
        break;
      case 'tree':
        await treeCommand(ctx, rest[0] ?? '/');
        break;
      case 'mkdir':
        needs(rest, 1, 'mkdir [-p] <path>...');
        await mkdirCommand(ctx, rest, values.parents ?? false);
        break;
      case 'put':
        needs(rest, 2, 'put <local>... <remote>');
        await putCommand(ctx, rest.slice(0, -1), rest.at(-1)!);
        break;
      case 'get':
        needs(rest, 2, 'get [-f] <remote>... <local>');
        await getCommand(ctx, rest.slice(0, -1), rest.at(-1)!, values.force ?? false);
        break;
      case 'mv':
        needs(rest, 2, 'mv <remote>... <remote>');
        await mvCommand(ctx, rest.slice(0, -1), rest.at(-1)!);
        break;
      case 'rm':
        needs(rest, 1, 'rm [-r] <remote>...');
        await rmCommand(ctx, rest, values.recursive ?? false);
        break;
      case 'share':
        needs(rest, 1, 'share <remote> --with <user> [--edit]');
        if (!values.with) throw new CliError('Usage: sealbox share <remote> --with <user> [--edit]', EXIT.usage);
        await shareCommand(ctx, rest[0]!, values.with, values.edit ?? false);
        break;
      case 'link':
        needs(rest, 1, 'link <remote> [--expires 7d|never] [--password] [--edit]');
        await linkCommand(ctx, rest[0]!, {
          expires: values.expires ?? 'never',
          password: values.password ?? false,
          edit: values.edit ?? false,
        });
        break;
      case 'keyring':
        await keyringCommand(ctx, rest[0]);
        break;
      case 'webdav':
        await webdavCommand(ctx, values.port);
        break;
      default:
        throw new CliError(`Unknown command "${command}". Run sealbox --help.`, EXIT.usage);
    }
    return EXIT.ok;
  } catch (error) {
    const failure =
      error instanceof CliError
        ? error
        : (error as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS')
          ? new CliError((error as Error).message, EXIT.usage)
          : new CliError(`Unexpected error: ${(error as Error)?.message ?? String(error)}`, EXIT.failed);
    if (json) out.data({ error: failure.message, exitCode: failure.exitCode });
    else process.stderr.write(`sealbox: ${failure.message}\n`);
    return failure.exitCode;
  }
}

if (import.meta.main) process.exit(await run(process.argv.slice(2)));
